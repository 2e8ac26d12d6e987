package quantity

import (
	"errors"
	"strings"
	"testing"
)

// Every input, however long or hostile, returns at once: Parse is linear in the length
// of its input and never scales by the exponent. There are no timing assertions here (the
// machine is shared); a regression shows as a test that does not finish.

const mega = 1 << 20

var hostileTests = []struct {
	name string
	in   string
	want string // String() of the result, or "" for an error
	err  error
}{
	{"1 MB of digits", strings.Repeat("9", mega), "", ErrRange},
	{"1 MB of zeros", strings.Repeat("0", mega), "0", nil},
	{"1 MB of zeros then 1", strings.Repeat("0", mega) + "1", "1", nil},
	{"1 followed by 1 MB of zeros", "1" + strings.Repeat("0", mega), "", ErrRange},
	{"1 MB fraction of zeros then 1", "0." + strings.Repeat("0", mega) + "1", "1n", nil},
	{"1 MB fraction of nines", "0." + strings.Repeat("9", mega), "1", nil},
	{"1 MB fraction with binary suffix", "0." + strings.Repeat("0", mega) + "1Ki", "1n", nil},
	{"1 MB fraction of nines with binary suffix", "0." + strings.Repeat("9", mega) + "Ki", "1Ki", nil},
	{"1 MB fraction of nines with Ei", "7." + strings.Repeat("9", mega) + "Ei", "", ErrRange},
	{"1 MB fraction with Ei", "0." + strings.Repeat("0", mega) + "1Ei", "1n", nil},
	{"1 MB of digits with binary suffix", strings.Repeat("9", mega) + "Ki", "", ErrRange},
	{"1 MB of digits from 1.5 with binary suffix", "1.5" + strings.Repeat("0", mega) + "1Mi", "1572864000000001n", nil},
	{"1 MB of digits with a fraction", strings.Repeat("1", mega/2) + "." + strings.Repeat("1", mega/2), "", ErrRange},
	{"1 MB of digits then junk", strings.Repeat("1", mega) + "x", "", ErrSuffix},
	{"1 MB of junk", strings.Repeat("\xff", mega), "", ErrSyntax},
	{"1 MB of points", strings.Repeat(".", mega), "", ErrSyntax},
	{"1 MB exponent", "1e" + strings.Repeat("9", mega), "", ErrRange},
	{"1 MB exponent of zeros", "1e" + strings.Repeat("0", mega), "1", nil},
	{"1 MB negative exponent", "1e-" + strings.Repeat("9", mega), "", ErrRange},
	{"exponent wrapping int32 in apimachinery", "1e3061300070", "", ErrRange},
	{"largest int32 exponent", "1e2147483647", "", ErrRange},
	{"smallest int32 exponent", "1e-2147483647", "1e-9", nil},
	{"smallest int32 exponent, fraction", "0.1e-2147483647", "", ErrRange},
	{"int64 exponent", "1e-9223372036854775808", "", ErrRange},
	{"zero with int64 exponent", "0e-9223372036854775808", "0", nil},
	{"many-digit exponent", "1e123456789012345678901234567890", "", ErrRange},
	{"many-digit negative exponent", "5e-000000000000000000000000000000000000000001", "500e-3", nil},
}

func TestHostileInputsReturnAtOnce(t *testing.T) {
	for _, tt := range hostileTests {
		q, err := Parse(tt.in)
		switch {
		case tt.err != nil:
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: Parse = %v, %v; want %v", tt.name, q, err, tt.err)
			}
			if len(err.Error()) > 400 { // 40 bytes of input, each at most 4 when quoted, twice

				t.Errorf("%s: error text is %d bytes", tt.name, len(err.Error()))
			}
		case err != nil || q.String() != tt.want:
			t.Errorf("%s: Parse = %v, %v; want %s", tt.name, q, err, tt.want)
		}
	}
}

func TestHostileInputsDoNotAllocate(t *testing.T) {
	// Success on a long input allocates nothing; failure allocates only the error.
	for _, long := range []string{
		"0." + strings.Repeat("0", mega) + "1",
		"0." + strings.Repeat("9", mega) + "Ki",
	} {
		if n := testing.AllocsPerRun(3, func() { sinkQuantity, sinkErr = Parse(long) }); n != 0 {
			t.Errorf("Parse of a 1 MB fraction %.8q... allocates %v times", long, n)
		}
	}
}
