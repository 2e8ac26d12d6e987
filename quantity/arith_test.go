package quantity

import (
	"errors"
	"testing"
)

var addTests = []struct {
	a, b string
	sum  string // "" for ErrRange
	diff string
}{
	{"100m", "2", "2100m", "-1900m"},
	{"1Gi", "1Gi", "2Gi", "0"},
	{"1500Mi", "548Mi", "2Gi", "952Mi"},
	{"0", "1Ki", "1Ki", "-1Ki"}, // zero takes the other's format
	{"1Ki", "0", "1Ki", "1Ki"},
	{"1", "1n", "1000000001n", "999999999n"},
	{"9223372036854775807", "1", "", "9223372036854775806"},
	{"-9223372036854775807", "-1", "", "-9223372036854775806"},
	{"1E", "1n", "", ""}, // in range, but 28 significant digits
	{"4E", "4E", "8E", "0"},
	{"5E", "5E", "", "0"},
	{"9223372036.854775807", "0.000000001", "", "9223372036854775806n"},
	{"10", "-9.999999999", "1n", "19999999999n"},
}

func TestAddSub(t *testing.T) {
	for _, tt := range addTests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		for _, op := range []struct {
			name string
			got  Quantity
			err  error
			want string
		}{
			{"Add", must2(a.Add(b)), err2(a.Add(b)), tt.sum},
			{"Sub", must2(a.Sub(b)), err2(a.Sub(b)), tt.diff},
		} {
			switch {
			case op.want == "":
				if !errors.Is(op.err, ErrRange) || op.got != (Quantity{}) {
					t.Errorf("%s.%s(%s) = %v, %v; want ErrRange", tt.a, op.name, tt.b, op.got, op.err)
				}
			case op.err != nil || op.got.String() != op.want:
				t.Errorf("%s.%s(%s) = %v, %v; want %s", tt.a, op.name, tt.b, op.got, op.err, op.want)
			}
		}
	}
}

func must2(q Quantity, _ error) Quantity { return q }
func err2(_ Quantity, err error) error   { return err }
