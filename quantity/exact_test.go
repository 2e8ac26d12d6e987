package quantity

// An oracle that owes nothing to apimachinery nor to the parser: the value a string
// denotes, computed with math/big from its text, and what a Quantity must then be.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"
)

// suffixValues are the suffixes of the grammar and the factors they stand for.
var suffixValues = map[string]*big.Rat{
	"": big.NewRat(1, 1), "n": big.NewRat(1, 1e9), "u": big.NewRat(1, 1e6), "m": big.NewRat(1, 1e3),
	"k": big.NewRat(1e3, 1), "M": big.NewRat(1e6, 1), "G": big.NewRat(1e9, 1), "T": big.NewRat(1e12, 1),
	"P": big.NewRat(1e15, 1), "E": big.NewRat(1e18, 1),
	"Ki": big.NewRat(1<<10, 1), "Mi": big.NewRat(1<<20, 1), "Gi": big.NewRat(1<<30, 1),
	"Ti": big.NewRat(1<<40, 1), "Pi": big.NewRat(1<<50, 1), "Ei": big.NewRat(1<<60, 1),
}

// ratOf returns the exact value of s when it is a number with digits and a known suffix
// or an exponent of at most 1000 in magnitude; ok is false otherwise.
func ratOf(s string) (x *big.Rat, ok bool) {
	sh := shapeOf(s)
	if sh.intDigits == "" && sh.fracDigit == "" {
		return nil, false
	}
	x, ok = new(big.Rat).SetString("0" + sh.intDigits + "." + sh.fracDigit + "0")
	if !ok {
		return nil, false
	}
	if f, known := suffixValues[sh.suffix]; known {
		x.Mul(x, f)
	} else if sh.hasExp && -1000 <= sh.exp && sh.exp <= 1000 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(sh.exp)), nil)
		if sh.exp < 0 {
			x.Quo(x, new(big.Rat).SetInt(p))
		} else {
			x.Mul(x, new(big.Rat).SetInt(p))
		}
	} else {
		return nil, false
	}
	if sh.neg {
		x.Neg(x)
	}
	return x, true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// ceilAway returns x×10^k rounded up, away from zero, to an integer.
func ceilAway(x *big.Rat, k int64) *big.Int {
	y := new(big.Rat).Mul(x, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)))
	n, r := new(big.Int).QuoRem(y.Num(), y.Denom(), new(big.Int))
	if r.Sign() > 0 {
		n.Add(n, big.NewInt(1))
	} else if r.Sign() < 0 {
		n.Sub(n, big.NewInt(1))
	}
	return n
}

var (
	bigMaxInt64 = big.NewInt(math.MaxInt64)
	bigMinInt64 = big.NewInt(math.MinInt64)
	maxNanosBig = new(big.Int).Mul(bigMaxInt64, big.NewInt(1e9))
)

// holdable reports whether a count of 10^-9 units is a Quantity's value: at most
// (2^63−1)×10^9 in magnitude, and with its trailing zeros dropped at most 2^63−1.
func holdable(nanos *big.Int) bool {
	if new(big.Int).Abs(nanos).Cmp(maxNanosBig) > 0 {
		return false
	}
	n := new(big.Int).Abs(nanos)
	ten, r := big.NewInt(10), new(big.Int)
	for n.Sign() != 0 {
		q, _ := new(big.Int).QuoRem(n, ten, r)
		if r.Sign() != 0 {
			break
		}
		n = q
	}
	return n.Cmp(bigMaxInt64) <= 0
}

// saturated returns n, or the int64 bound on its side when it does not fit.
func saturated(n *big.Int) int64 {
	switch {
	case n.Cmp(bigMaxInt64) > 0:
		return math.MaxInt64
	case n.Cmp(bigMinInt64) < 0:
		return math.MinInt64
	}
	return n.Int64()
}

// nanosOf returns q's value in units of 10^-9.
func nanosOf(q Quantity) *big.Int {
	n := big.NewInt(q.n)
	return n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(q.exp)+9), nil))
}

// checkExact checks Parse(s) against the exact value of s: when it is accepted, its
// value is that rounded up (away from zero) to 10^-9 and its Value and MilliValue that
// rounded up to 1 and 10^-3; when it is refused for its range, the rounded value is
// one a Quantity cannot hold. Strings ratOf does not read are not checked.
func checkExact(s string) error {
	x, ok := ratOf(s)
	if !ok {
		return nil
	}
	q, err := Parse(s)
	nanos := ceilAway(x, 9)
	switch {
	case errors.Is(err, ErrRange):
		if holdable(nanos) {
			return fmt.Errorf("Parse(%q) = %v; want %sn, which fits", s, err, nanos)
		}
		return nil
	case err != nil:
		return nil // syntax: apimachinery's to judge, in diffOne
	case !holdable(nanos):
		return fmt.Errorf("Parse(%q) = %v, nil; want ErrRange for %sn", s, q, nanos)
	case nanosOf(q).Cmp(nanos) != 0:
		return fmt.Errorf("Parse(%q) = %v (%sn); want %sn", s, q, nanosOf(q), nanos)
	}
	if got, want := q.Value(), saturated(ceilAway(x, 0)); got != want {
		return fmt.Errorf("Parse(%q).Value() = %d; want %d", s, got, want)
	}
	if got, want := q.MilliValue(), saturated(ceilAway(x, 3)); got != want {
		return fmt.Errorf("Parse(%q).MilliValue() = %d; want %d", s, got, want)
	}
	return nil
}

func TestParseIsExact(t *testing.T) {
	for _, list := range [][]string{apimachineryCases, oddCases, longCases} {
		for _, s := range list {
			for _, in := range []string{s, "-" + s} {
				if err := checkExact(in); err != nil {
					t.Error(err)
				}
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(genLongText, genQuantityText).Draw(t, "s")
		if err := checkExact(s); err != nil {
			t.Fatal(err)
		}
	})
}

// negativeTests are negative values apimachinery computes on its arbitrary-precision
// path (a fraction with a binary suffix, more than 18 digits, a scale below 10^-9), where
// its MilliValue and Value round toward zero and one unit past it when there is a
// remainder, and wrap once the count of 10^-9 units passes 2^63. Ours are the exact
// value rounded away from zero, as apimachinery's int64 path rounds ("-1.5" has Value
// −2 in both). The package documentation quotes these.
var negativeTests = []struct {
	in                   string
	milli, value         int64 // ours: exact, away from zero
	refMilli, refValue   int64 // apimachinery v0.37.2's
	refMilliOK, refValOK bool  // whether apimachinery's are right
}{
	{"-1.5", -1500, -2, -1500, -2, true, true}, // the int64 path: right
	{"-3.5e-3", -4, -1, -4, -1, true, true},
	{"-1.5Gi", -1610612736000, -1610612736, -1610612736000, -1610612736, true, true}, // whole: right
	{"-3e-12", -1, -1, 1, 1, false, false},
	{"-0.0000000001", -1, -1, 1, 1, false, false},
	{"-0.2Gi", -214748364800, -214748365, -214748364800, -214748363, true, false},
	{"-0.0001Ki", -103, -1, -101, 1, false, false},
	{"-1.0000000001", -1001, -2, -999, 0, false, false},
	{"-100.035Ki", -102435840, -102436, -102435840, -102434, true, false},
	{"-050.10679935660691460504Ki", -51309363, -51310, -51309361, -51308, false, false},
	{"-1.025Ti", -1126999418470400, -1126999418471, -1748029974116, -1748029973, false, false},
	{"-10.0Ti", -10995116277760000, -10995116277760, -856809829106, -856809828, false, false},       // whole, but wraps
	{"-10Ti", -10995116277760000, -10995116277760, -10995116277760000, -10995116277760, true, true}, // the int64 path
}

func TestNegativeValuesAreExact(t *testing.T) {
	for _, tt := range negativeTests {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) = %v", tt.in, err)
			continue
		}
		if got := q.MilliValue(); got != tt.milli {
			t.Errorf("Parse(%q).MilliValue() = %d; want %d", tt.in, got, tt.milli)
		}
		if got := q.Value(); got != tt.value {
			t.Errorf("Parse(%q).Value() = %d; want %d", tt.in, got, tt.value)
		}
		x, _ := ratOf(tt.in)
		if want := ceilAway(x, 3).Int64(); tt.milli != want {
			t.Errorf("%q: the table's MilliValue %d is not the exact %d", tt.in, tt.milli, want)
		}
		if want := ceilAway(x, 0).Int64(); tt.value != want {
			t.Errorf("%q: the table's Value %d is not the exact %d", tt.in, tt.value, want)
		}
		// What the documentation says of apimachinery stays true of the version we test
		// against; a change here means the documentation needs one too.
		r := resource.MustParse(tt.in)
		if got := r.MilliValue(); got != tt.refMilli || (got == tt.milli) != tt.refMilliOK {
			t.Errorf("resource.MustParse(%q).MilliValue() = %d; the table says %d", tt.in, got, tt.refMilli)
		}
		if got := r.Value(); got != tt.refValue || (got == tt.value) != tt.refValOK {
			t.Errorf("resource.MustParse(%q).Value() = %d; the table says %d", tt.in, got, tt.refValue)
		}
	}
}

// TestOracle checks the oracle itself on values worked out by hand.
func TestOracle(t *testing.T) {
	for _, tt := range []struct {
		in           string
		nanos        string
		milli, value int64
	}{
		{"050.10679935660691460504Ki", "51309362541166", 51309363, 51310},
		{"-0.2Gi", "-214748364800000000", -214748364800, -214748365},
		{"1e-12", "1", 1, 1},
		{"-1.5", "-1500000000", -1500, -2},
	} {
		x, ok := ratOf(tt.in)
		if !ok {
			t.Fatalf("ratOf(%q) failed", tt.in)
		}
		if got := ceilAway(x, 9).String(); got != tt.nanos {
			t.Errorf("ceilAway(%q, 9) = %s; want %s", tt.in, got, tt.nanos)
		}
		if got := ceilAway(x, 3).Int64(); got != tt.milli {
			t.Errorf("ceilAway(%q, 3) = %d; want %d", tt.in, got, tt.milli)
		}
		if got := ceilAway(x, 0).Int64(); got != tt.value {
			t.Errorf("ceilAway(%q, 0) = %d; want %d", tt.in, got, tt.value)
		}
	}
	for _, tt := range []struct {
		nanos string
		want  bool
	}{
		{"9223372036854775807000000000", true}, {"9223372036854775807000000001", false},
		{"9223372036854775807", true}, {"9223372036854775808", false}, {"-9223372036854775807", true},
		{"12345678901234567890", true}, {"12345678901234567891", false},
	} {
		n, _ := new(big.Int).SetString(tt.nanos, 10)
		if got := holdable(n); got != tt.want {
			t.Errorf("holdable(%s) = %t; want %t", tt.nanos, got, tt.want)
		}
	}
	if _, ok := ratOf("1x"); ok {
		t.Errorf("ratOf(\"1x\") reads an unknown suffix")
	}
}
