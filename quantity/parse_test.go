package quantity

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var parseTests = []struct {
	in     string
	want   string // String()
	format Format
	milli  int64
	value  int64
}{
	// the values instance types carry
	{"100m", "100m", DecimalSI, 100, 1},
	{"700m", "700m", DecimalSI, 700, 1},
	{"1", "1", DecimalSI, 1000, 1},
	{"2", "2", DecimalSI, 2000, 2},
	{"1500Mi", "1500Mi", BinarySI, 1572864000000, 1572864000},
	{"2Gi", "2Gi", BinarySI, 2147483648000, 2147483648},
	{"0.5Gi", "512Mi", BinarySI, 536870912000, 536870912},
	{"0.2Gi", "214748364800m", BinarySI, 214748364800, 214748365},
	{"0.1", "100m", DecimalSI, 100, 1},
	{"1024Mi", "1Gi", BinarySI, 1073741824000, 1073741824},
	{"4G", "4G", DecimalSI, 4000000000000, 4000000000},
	{"1e3", "1e3", DecimalExponent, 1000000, 1000},
	// canonical forms
	{"1.5", "1500m", DecimalSI, 1500, 2},
	{"+1", "1", DecimalSI, 1000, 1},
	{"5.", "5", DecimalSI, 5000, 5},
	{"01", "1", DecimalSI, 1000, 1},
	{"1000m", "1", DecimalSI, 1000, 1},
	{"1.5Ki", "1536", BinarySI, 1536000, 1536},
	{"1Ki", "1Ki", BinarySI, 1024000, 1024},
	{"-1Ki", "-1Ki", BinarySI, -1024000, -1024},
	{"0.5Ki", "512", BinarySI, 512000, 512},
	{"0.0001Ki", "102400u", DecimalSI, 103, 1},
	{"1.5e3", "1500", DecimalExponent, 1500000, 1500},
	{"1e-3", "1e-3", DecimalExponent, 1, 1},
	{"10e2", "1e3", DecimalExponent, 1000000, 1000},
	{"1E", "1E", DecimalSI, math.MaxInt64, 1000000000000000000},
	{"922337203685477580.7", "922337203685477580700m", DecimalSI, math.MaxInt64, 922337203685477581},
	// rounding up to 10^-9, away from zero
	{"0.1n", "1n", DecimalSI, 1, 1},
	{"-0.1n", "-1n", DecimalSI, -1, -1},
	{"-1.5", "-1500m", DecimalSI, -1500, -2},
	{"-0.0000000001", "-1n", DecimalSI, -1, -1},
	{"1.0000000000000000000001", "1000000001n", DecimalSI, 1001, 2},
	{"9223372036854775806.9999999999", "9223372036854775807", DecimalSI, math.MaxInt64, math.MaxInt64},
	// more than 19 significant digits, rounded exactly as apimachinery rounds them
	{"050.10679935660691460504Ki", "51309362541166n", BinarySI, 51309363, 51310},
	{"-050.10679935660691460504Ki", "-51309362541166n", BinarySI, -51309363, -51310},
	{"1.0000000000000000001Ki", "1024000000001n", BinarySI, 1024001, 1025},
	{"0.37252902984619140625Ki", "381469726563n", BinarySI, 381470, 382},
	{"0.00097656249999999999999Ki", "1", BinarySI, 1000, 1},
	{"9007199254740991.9990234375Ki", "9223372036854775807", BinarySI, math.MaxInt64, math.MaxInt64},
	{"1234567890123456789012345678e-28", "123456790e-9", DecimalExponent, 124, 1},
	// numbers without digits
	{".", "0", DecimalSI, 0, 0},
	{"-", "0", DecimalSI, 0, 0},
	{"Ki", "0", DecimalSI, 0, 0},
	{"e3", "0", DecimalSI, 0, 0},
	{"0Ki", "0", DecimalSI, 0, 0},
	{"0e9999999999", "0", DecimalSI, 0, 0},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) = %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want || q.Format() != tt.format {
			t.Errorf("Parse(%q) = %s, %v; want %s, %v", tt.in, got, q.Format(), tt.want, tt.format)
		}
		if got := q.MilliValue(); got != tt.milli {
			t.Errorf("Parse(%q).MilliValue() = %d; want %d", tt.in, got, tt.milli)
		}
		if got := q.Value(); got != tt.value {
			t.Errorf("Parse(%q).Value() = %d; want %d", tt.in, got, tt.value)
		}
		if m := MustParse(tt.in); m != q {
			t.Errorf("MustParse(%q) = %#v; want %#v", tt.in, m, q)
		}
	}
}

var parseErrorTests = []struct {
	in  string
	err error
	at  int
	msg string
}{
	{"", ErrSyntax, 0, `quantity: parsing "": invalid syntax`},
	{"2Gx", ErrSuffix, 2, `quantity: parsing "2Gx": unknown suffix "x"`},
	{"1Kb", ErrSuffix, 1, `quantity: parsing "1Kb": unknown suffix "Kb"`},
	{"1ki", ErrSuffix, 2, `quantity: parsing "1ki": unknown suffix "i"`},
	{"1e", ErrSuffix, 1, `quantity: parsing "1e": unknown suffix "e"`},
	{"1e+", ErrSuffix, 1, `quantity: parsing "1e+": unknown suffix "e+"`},
	{"1e3x", ErrSuffix, 3, `quantity: parsing "1e3x": unknown suffix "x"`},
	{"1 ", ErrSyntax, 1, `quantity: parsing "1 ": invalid syntax`},
	{" 1", ErrSyntax, 0, `quantity: parsing " 1": invalid syntax`},
	{"1.2.3", ErrSyntax, 3, `quantity: parsing "1.2.3": invalid syntax`},
	{"--1", ErrSyntax, 1, `quantity: parsing "--1": invalid syntax`},
	{"e-10", ErrSyntax, 0, `quantity: parsing "e-10": invalid syntax`},
	{"Pi", ErrSyntax, 0, `quantity: parsing "Pi": invalid syntax`},
	{"10Ei", ErrRange, 0, `quantity: parsing "10Ei": value out of range`},
	{"8Ei", ErrRange, 0, `quantity: parsing "8Ei": value out of range`},
	{"1e19", ErrRange, 0, `quantity: parsing "1e19": value out of range`},
	{"-9223372036854775808", ErrRange, 0, `quantity: parsing "-9223372036854775808": value out of range`},
	{"1e3061300070", ErrRange, 0, `quantity: parsing "1e3061300070": value out of range`},
	{"1e4294967296", ErrRange, 0, `quantity: parsing "1e4294967296": value out of range`},
	{"1e9223372036854775808", ErrRange, 1, `quantity: parsing "1e9223372036854775808": value out of range`},
	{"12345678901.234567891", ErrRange, 0, `quantity: parsing "12345678901.234567891": value out of range`},
	{"12345678901.2345678901", ErrRange, 0, `quantity: parsing "12345678901.2345678901": value out of range`},
	{"9007199254740991.99902343750001Ki", ErrRange, 0, `quantity: parsing "9007199254740991.99902343750001Ki": value out of range`},
	{"1\xff", ErrSyntax, 1, `quantity: parsing "1\xff": invalid syntax`},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorTests {
		q, err := Parse(tt.in)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, tt.err) || q != (Quantity{}) {
			t.Errorf("Parse(%q) = %#v, %v; want the zero Quantity and a *ParseError wrapping %v", tt.in, q, err, tt.err)
			continue
		}
		if pe.Input != tt.in || pe.At != tt.at || pe.Err != tt.err {
			t.Errorf("Parse(%q) error = %#v; want Input %q, At %d, Err %v", tt.in, pe, tt.in, tt.at, tt.err)
		}
		if got := err.Error(); got != tt.msg {
			t.Errorf("Parse(%q) error text = %s; want %s", tt.in, got, tt.msg)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrSuffix) {
			t.Errorf("MustParse(\"2Gx\") panicked with %v; want the *ParseError", err)
		}
	}()
	MustParse("2Gx")
}

func TestParseErrorMessageIsShort(t *testing.T) {
	long := strings.Repeat("1", 1<<20) + "x"
	_, err := Parse(long)
	msg := err.Error()
	if len(msg) > 200 || !strings.Contains(msg, "(1048577 bytes)") {
		t.Errorf("error text for a 1 MB input is %d bytes: %.300s", len(msg), msg)
	}
	// A cut never splits a UTF-8 sequence.
	_, err = Parse(strings.Repeat("é", 100))
	if msg := err.Error(); strings.Contains(msg, `\x`) {
		t.Errorf("error text splits a rune: %s", msg)
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{
		DecimalSI: "DecimalSI", BinarySI: "BinarySI", DecimalExponent: "DecimalExponent", 7: "Format(7)",
	} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q; want %q", f, got, want)
		}
	}
}

func TestZeroValue(t *testing.T) {
	var z Quantity
	if !z.IsZero() || z.Sign() != 0 || z.String() != "0" || z.Format() != DecimalSI || !z.IsInt() {
		t.Errorf("the zero Quantity is %v (%v)", z, z.Format())
	}
	for _, s := range []string{"0", "0Ki", "-0", "0e3", "0.000n", "."} {
		if q := MustParse(s); q != z {
			t.Errorf("MustParse(%q) = %#v; want the zero Quantity", s, q)
		}
	}
	if q := MustParse("1Ki").WithFormat(DecimalExponent); q.String() != "1024" {
		t.Errorf("1Ki in DecimalExponent prints %q", q)
	}
	if q := MustParse("1Ki").WithFormat(9); q.Format() != DecimalExponent {
		t.Errorf("an unknown format is %v; want DecimalExponent", q.Format())
	}
	if q := z.WithFormat(BinarySI); q != z {
		t.Errorf("zero.WithFormat(BinarySI) = %#v; want zero", q)
	}
}

func TestIsIntSignNeg(t *testing.T) {
	for _, tt := range []struct {
		in    string
		isInt bool
		sign  int
	}{
		{"1", true, 1}, {"1000m", true, 1}, {"1500m", false, 1}, {"-2Gi", true, -1},
		{"0.2Gi", false, 1}, {"-1n", false, -1}, {"0", true, 0},
	} {
		q := MustParse(tt.in)
		if q.IsInt() != tt.isInt || q.Sign() != tt.sign || q.Neg().Sign() != -tt.sign || q.Neg().Neg() != q {
			t.Errorf("%q: IsInt %t, Sign %d; want %t, %d", tt.in, q.IsInt(), q.Sign(), tt.isInt, tt.sign)
		}
	}
}
