package quantity

// The reference: apimachinery's resource.ParseQuantity, and the checks that compare
// Parse with it. Used by the differential tests, the rapid properties and FuzzParse.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// refCanonical returns what apimachinery prints for r as a computed quantity. Its
// ParseQuantity keeps the input as r's String when the digits look canonical, so "+1",
// "01" and "1." print as written; negating twice drops that cached text.
func refCanonical(r resource.Quantity) string {
	c := r.DeepCopy()
	c.Neg()
	c.Neg()
	return c.String()
}

// refExact returns r's value as unscaled×10^exp with unscaled free of trailing zeros
// (or 0 with exp 0). Only call it on values with modest exponents.
func refExact(r resource.Quantity) (unscaled *big.Int, exp int64) {
	c := r.DeepCopy()
	d := c.AsDec()
	u := new(big.Int).Set(d.UnscaledBig())
	exp = -int64(d.Scale())
	if u.Sign() == 0 {
		return u, 0
	}
	ten := big.NewInt(10)
	var q, m big.Int
	for {
		q.QuoRem(u, ten, &m)
		if m.Sign() != 0 {
			return u, exp
		}
		u.Set(&q)
		exp++
	}
}

// refFits reports whether r's value is one a Quantity holds: a multiple of 10^-9 whose
// significand fits an int64 and whose magnitude is at most 2^63−1.
func refFits(r resource.Quantity) bool {
	u, exp := refExact(r)
	if u.Sign() == 0 {
		return true
	}
	if exp < -9 || exp > 18 || !u.IsInt64() || u.Int64() == math.MinInt64 {
		return false
	}
	v := new(big.Int).Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(exp+9), nil))
	return v.CmpAbs(new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(1e9))) <= 0
}

// refCapped reports whether r may be a value apimachinery capped: it replaces binary
// values beyond 2^63−1 in magnitude by ±(2^63−1).
func refCapped(r resource.Quantity) bool {
	u, exp := refExact(r)
	return r.Format == resource.BinarySI && exp == 0 && u.IsInt64() &&
		(u.Int64() == math.MaxInt64 || u.Int64() == -math.MaxInt64)
}

// refScaled returns ⌈r×10^k⌉ rounded away from zero, as apimachinery's int64 path
// computes MilliValue (k=3) and Value (k=0), and whether it fits an int64. We do not call
// r.MilliValue() directly: for a value parsed through inf.Dec apimachinery rounds
// negative values toward +∞ instead ("-0.0000000001" has MilliValue 1, "-1n" has −1),
// and it returns 0 or a wrapped number on overflow.
func refScaled(r resource.Quantity, k int64) (int64, bool) {
	u, exp := refExact(r)
	exp += k
	if exp >= 0 {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(exp), nil))
	} else {
		var m big.Int
		neg := u.Sign() < 0
		u.QuoRem(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(-exp), nil), &m)
		if m.Sign() != 0 {
			if neg {
				u.Sub(u, big.NewInt(1))
			} else {
				u.Add(u, big.NewInt(1))
			}
		}
	}
	return u.Int64(), u.IsInt64()
}

// shape is the structure of a string under the grammar: enough for the tests to tell
// which inputs apimachinery is slow on, and which we refuse on purpose.
type shape struct {
	ok        bool   // the string is [sign] digits [. digits] suffix-ish
	neg       bool   // a leading "-"
	intDigits string // digits before the point
	fracDigit string // digits after the point
	suffix    string // the rest
	hasExp    bool   // the suffix is an exponent whose digits fit an int64
	exp       int64  // that exponent
}

func shapeOf(s string) shape {
	var sh shape
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		sh.neg = s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	sh.intDigits = s[i:j]
	if j < len(s) && s[j] == '.' {
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		sh.fracDigit = s[j+1 : k]
		j = k
	}
	sh.suffix = s[j:]
	sh.ok = true
	if len(sh.suffix) >= 2 && (sh.suffix[0] == 'e' || sh.suffix[0] == 'E') {
		if e, err := strconv.ParseInt(sh.suffix[1:], 10, 64); err == nil {
			sh.hasExp, sh.exp = true, e
		}
	}
	return sh
}

// significant returns the digits of the number without leading or trailing zeros.
func (sh shape) significant() string {
	return strings.Trim(sh.intDigits+sh.fracDigit, "0")
}

// apimachinerySlow reports whether resource.ParseQuantity, or String and Cmp on what
// it returns, may take too long to call in a test. The precise condition: apimachinery
// keeps the exponent as an int32 and, on its inf.Dec path (more than 18 digits after
// leading zeros, or int32(exp) − len(fraction) < −9), rounds to 10^-9 by scaling with
// 10^|int32(exp)|: "1e-1000000" takes about 50 ms, and "1e3061300070" (int32
// −1233667226) does not return. On its int64 path a huge exponent parses at once, but
// Cmp and String then scale by it. We skip every nonzero input whose exponent is not an
// int32 or exceeds 1000 in magnitude, and inputs longer than 10,000 bytes (inf.Dec
// parses digits in quadratic time); checkHugeExponent covers the exponents instead.
func apimachinerySlow(s string) bool {
	if len(s) > 10000 {
		return true
	}
	sh := shapeOf(s)
	return sh.hasExp && (sh.exp != int64(int32(sh.exp)) || sh.exp > 1000 || sh.exp < -1000)
}

// checkHugeExponent checks Parse on an input with an exponent too large to give
// apimachinery (see apimachinerySlow), against what the grammar says it denotes.
func checkHugeExponent(s string, q Quantity, err error) error {
	sh := shapeOf(s)
	digitless := sh.intDigits == "" && sh.fracDigit == ""
	switch {
	case !sh.hasExp || len(s) > 10000:
		return nil // only the exponents are checked here; long inputs in hostile_test.go
	case digitless && int32(sh.exp) < -9:
		if !errors.Is(err, ErrSyntax) {
			return fmt.Errorf("Parse(%q) = %v, %v; want ErrSyntax (no digits, exponent below -9)", s, q, err)
		}
	case sh.significant() == "":
		if err != nil || !q.IsZero() {
			return fmt.Errorf("Parse(%q) = %v, %v; want 0", s, q, err)
		}
	case sh.exp != int64(int32(sh.exp)) || sh.exp-int64(len(sh.fracDigit)) <= math.MinInt32 || sh.exp > 0:
		if !errors.Is(err, ErrRange) {
			return fmt.Errorf("Parse(%q) = %v, %v; want ErrRange", s, q, err)
		}
	default: // a tiny nonzero number: ±1n
		want := "1e-9"
		if sh.neg {
			want = "-1e-9"
		}
		if err != nil || q.String() != want {
			return fmt.Errorf("Parse(%q) = %v, %v; want %s", s, q, err, want)
		}
	}
	return nil
}

// diffOne compares Parse(s) with resource.ParseQuantity(s): acceptance, value (Cmp),
// String, Format, MilliValue, Value, and FromResource of apimachinery's result. It
// returns a description of the first difference, or nil.
func diffOne(s string) error {
	q, err := Parse(s)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Input != s || pe.At < 0 || pe.At > len(s) || !q.IsZero() {
			return fmt.Errorf("Parse(%q) = %#v, %v: want the zero Quantity and a *ParseError for the input", s, q, err)
		}
	}
	if apimachinerySlow(s) {
		return checkHugeExponent(s, q, err)
	}
	r, rerr := resource.ParseQuantity(s)
	switch {
	case rerr != nil && err == nil:
		return fmt.Errorf("Parse(%q) = %v, nil; apimachinery refuses it: %v", s, q, rerr)
	case rerr != nil:
		if errors.Is(err, ErrRange) && !strings.ContainsAny(s, "eE") {
			return fmt.Errorf("Parse(%q) = %v; apimachinery refuses it (%v), not for its range", s, err, rerr)
		}
		return nil
	case err != nil:
		if !errors.Is(err, ErrRange) {
			return fmt.Errorf("Parse(%q) = %v; apimachinery accepts it as %s", s, err, refCanonical(r))
		}
		if refFits(r) && !refCapped(r) {
			return fmt.Errorf("Parse(%q) = %v; apimachinery's %s is in range", s, err, refCanonical(r))
		}
		return nil
	}
	if !refFits(r) {
		return fmt.Errorf("Parse(%q) = %v; apimachinery's %s is out of range", s, q, refCanonical(r))
	}
	rq := q.ToResource()
	if rq.Cmp(r) != 0 {
		return fmt.Errorf("Parse(%q) = %v; apimachinery has %s", s, q, refCanonical(r))
	}
	if got, want := q.String(), refCanonical(r); got != want {
		return fmt.Errorf("Parse(%q).String() = %q; apimachinery prints %q", s, got, want)
	}
	if !q.IsZero() && q.Format() != formatOf(r.Format) {
		return fmt.Errorf("Parse(%q).Format() = %v; apimachinery has %v", s, q.Format(), r.Format)
	}
	if q.Sign() != r.Sign() || q.IsZero() != r.IsZero() {
		return fmt.Errorf("Parse(%q): Sign %d, IsZero %t; apimachinery %d, %t", s, q.Sign(), q.IsZero(), r.Sign(), r.IsZero())
	}
	for _, c := range []struct {
		name string
		got  int64
		k    int64
	}{{"MilliValue", q.MilliValue(), 3}, {"Value", q.Value(), 0}} {
		want, ok := refScaled(r, c.k)
		if !ok {
			want = math.MaxInt64
			if q.Sign() < 0 {
				want = math.MinInt64
			}
		}
		if c.got != want {
			return fmt.Errorf("Parse(%q).%s() = %d; want %d", s, c.name, c.got, want)
		}
	}
	if ok := r.Cmp(q.ToResource()) == 0; !ok {
		return fmt.Errorf("apimachinery's %s != ToResource(Parse(%q))", refCanonical(r), s)
	}
	if back, err := FromResource(r); err != nil || back != q {
		return fmt.Errorf("FromResource(ParseQuantity(%q)) = %#v, %v; want %#v", s, back, err, q)
	}
	return nil
}
