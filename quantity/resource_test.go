package quantity

import (
	"errors"
	"math"
	"math/big"
	"testing"

	inf "gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestToResource(t *testing.T) {
	for _, s := range []string{"0", "100m", "2Gi", "0.2Gi", "1e3", "-1.5", "1n", "9223372036854775807", "1E"} {
		q := MustParse(s)
		r := q.ToResource()
		ref := resource.MustParse(s)
		if r.Cmp(ref) != 0 || r.String() != refCanonical(ref) || r.Format != ref.Format && !q.IsZero() {
			t.Errorf("MustParse(%q).ToResource() = %s (%s); want %s (%s)", s, r.String(), r.Format, refCanonical(ref), ref.Format)
		}
	}
}

func TestFromResource(t *testing.T) {
	dec := func(unscaled int64, scale inf.Scale, f resource.Format) resource.Quantity {
		return *resource.NewDecimalQuantity(*inf.NewDec(unscaled, scale), f)
	}
	huge := new(inf.Dec).SetUnscaledBig(new(big.Int).Lsh(big.NewInt(1), 200))
	tiny := new(inf.Dec).SetUnscaledBig(new(big.Int).Lsh(big.NewInt(1), 200))
	tiny.SetScale(100) // 2^200 × 10^-100 ≈ 1.6e-40
	exact := new(inf.Dec).SetUnscaledBig(new(big.Int).Lsh(big.NewInt(1), 200))
	exact.SetScale(40) // 2^200 × 10^-40 ≈ 1.6e20: out of range
	for _, tt := range []struct {
		name string
		in   resource.Quantity
		want string
		f    Format
		err  error
	}{
		{"zero value", resource.Quantity{}, "0", DecimalSI, nil},
		{"int64", *resource.NewQuantity(5, resource.BinarySI), "5", BinarySI, nil},
		{"milli", *resource.NewMilliQuantity(1500, resource.DecimalSI), "1500m", DecimalSI, nil},
		{"scaled", *resource.NewScaledQuantity(2, resource.Giga), "2G", DecimalSI, nil},
		{"no format prints as an exponent", *resource.NewScaledQuantity(2, resource.Kilo), "2e3", DecimalExponent, nil},
		{"below a nano rounds up", *resource.NewScaledQuantity(1, -12), "1n", DecimalSI, nil},
		{"below a nano rounds away from zero", *resource.NewScaledQuantity(-1001, -12), "-2n", DecimalSI, nil},
		{"inf.Dec", dec(15, 1, resource.DecimalSI), "1500m", DecimalSI, nil},
		{"int64 min", *resource.NewQuantity(math.MinInt64, resource.DecimalSI), "", DecimalSI, ErrRange},
		{"beyond int64", resource.MustParse("10E"), "", DecimalSI, ErrRange},
		{"capped binary", resource.MustParse("10Ei"), "9223372036854775807", BinarySI, nil},
		{"200-bit integer", *resource.NewDecimalQuantity(*huge, resource.DecimalSI), "", DecimalSI, ErrRange},
		{"200-bit tiny fraction", *resource.NewDecimalQuantity(*tiny, resource.DecimalSI), "1n", DecimalSI, nil},
		{"200-bit large fraction", *resource.NewDecimalQuantity(*exact, resource.DecimalSI), "", DecimalSI, ErrRange},
	} {
		if tt.name == "no format prints as an exponent" {
			tt.in.Format = ""
		}
		q, err := FromResource(tt.in)
		switch {
		case tt.err != nil:
			if !errors.Is(err, tt.err) || q != (Quantity{}) {
				t.Errorf("%s: FromResource = %v, %v; want %v", tt.name, q, err, tt.err)
			}
		case err != nil || q.String() != tt.want || q.Format() != tt.f:
			t.Errorf("%s: FromResource = %v (%v), %v; want %s (%v)", tt.name, q, q.Format(), err, tt.want, tt.f)
		}
	}
}
