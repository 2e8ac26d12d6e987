package quantity

import "math"

// Quantity is a resource quantity: a decimal number with at most nine fractional digits
// and a magnitude of at most 2^63−1, and the Format it prints in.
//
// A Quantity is a small comparable value, like [net/netip.Addr]: it holds no pointers
// and no cached text, so it is safe to copy, to compare with ==, and to use as a map
// key. Two Quantities are == when they have the same value and the same Format; use
// [Quantity.Cmp] to compare values alone ("1Ki" and "1024" are not == but Cmp 0).
//
// The zero Quantity is 0 in DecimalSI, what resource.Quantity{} means. Every zero is
// that one: a zero parsed as "0Ki" or computed by [Quantity.Sub] is the zero Quantity.
type Quantity struct {
	// n is the significand: nonzero and not a multiple of 10, or 0 with exp 0.
	// |n| ≤ math.MaxInt64, so negating it never overflows.
	n int64
	// exp is the power of ten n is scaled by, from -9 to 18, such that |n×10^exp| ≤
	// math.MaxInt64.
	exp int8
	// f is the Format; DecimalSI for zero.
	f Format
}

// Format is how a Quantity prints: with a decimal SI suffix, a binary SI suffix or a
// decimal exponent. The zero Format is DecimalSI.
type Format uint8

// The three formats of apimachinery's resource.Format.
const (
	DecimalSI       Format = iota // 12M, 12 × 10^6; the zero Format
	BinarySI                      // 12Mi, 12 × 2^20
	DecimalExponent               // 12e6
)

// String returns the name apimachinery gives the format: "DecimalSI", "BinarySI" or
// "DecimalExponent"; or "Format(N)" for a value that is none of them.
func (f Format) String() string {
	switch f {
	case DecimalSI:
		return "DecimalSI"
	case BinarySI:
		return "BinarySI"
	case DecimalExponent:
		return "DecimalExponent"
	}
	return "Format(" + itoa(int64(f)) + ")"
}

// Format returns the format q prints in. A quantity parsed with a binary suffix whose
// value is below 1 in magnitude ("0.0001Ki") has DecimalSI, as apimachinery gives it.
func (q Quantity) Format() Format { return q.f }

// WithFormat returns q with format f. A Format other than the three constants is taken
// as DecimalExponent, which is how apimachinery prints a format it does not know. The
// zero Quantity is returned unchanged.
func (q Quantity) WithFormat(f Format) Quantity {
	if q.n == 0 {
		return Quantity{}
	}
	if f > DecimalExponent {
		f = DecimalExponent
	}
	q.f = f
	return q
}

// IsInt reports whether q is a whole number: "2", "1Ki" and "1000m" are; "1500m" is not.
func (q Quantity) IsInt() bool { return q.exp >= 0 || q.n == 0 }

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool { return q.n == 0 }

// Sign returns -1, 0 or +1 as q is negative, zero or positive.
func (q Quantity) Sign() int {
	switch {
	case q.n < 0:
		return -1
	case q.n > 0:
		return 1
	}
	return 0
}

// Neg returns −q, in q's format. It cannot overflow: the range is symmetric.
func (q Quantity) Neg() Quantity {
	q.n = -q.n
	return q
}

// Cmp compares the values of q and r, ignoring their formats: -1 if q < r, 0 if q == r,
// +1 if q > r. It never allocates.
func (q Quantity) Cmp(r Quantity) int {
	if q.exp == r.exp { // the common case: both whole, both milli, both Gi...
		return cmp64(q.n, r.n)
	}
	sq, sr := q.Sign(), r.Sign()
	if sq != sr || sq == 0 {
		return cmp64(int64(sq), int64(sr))
	}
	// Same sign, nonzero, different scales: compare magnitudes with the larger scale
	// brought down to the smaller one. Beyond 18 digits of difference the one with the
	// larger scale wins outright: it is at least 10^d times a nonzero significand, and
	// every significand is below 10^19.
	a, b := abs(q.n), abs(r.n)
	c := 0
	if d := int(q.exp) - int(r.exp); d > 0 {
		c = cmpScaled(a, d, b)
	} else {
		c = -cmpScaled(b, -d, a)
	}
	return c * sq
}

// cmpScaled compares a×10^d with b, for d > 0.
func cmpScaled(a uint64, d int, b uint64) int {
	if d > 19 {
		return 1
	}
	hi, lo := mul64(a, pow10[d])
	if hi != 0 || lo > b {
		return 1
	}
	if lo < b {
		return -1
	}
	return 0
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Value returns q rounded up, away from zero, to a whole number: "1.5" is 2, "-1.5" is
// −2, "100m" is 1, "-0.2Gi" is −214748365. Every Quantity's Value fits an int64, so it is
// always exact up to that rounding, for negative values too, where apimachinery's is
// not always (it says −214748363 for "-0.2Gi"; see the package documentation).
func (q Quantity) Value() int64 { return q.scaled(0) }

// MilliValue returns q×1000 rounded up, away from zero: "100m" is 100, "1" is 1000,
// "1n" is 1, "-1n" is −1 (apimachinery says 1 for "-0.1n"; see the package
// documentation). Where that does not fit an int64 (|q| > 9223372036854775.807, e.g.
// "10P") it returns math.MaxInt64 or math.MinInt64 by q's sign, where apimachinery
// returns a wrapped or zero value; compare [Quantity.Value] against MaxInt64/1000 to
// tell.
func (q Quantity) MilliValue() int64 { return q.scaled(3) }

// scaled returns q×10^k rounded away from zero, saturating at the int64 range.
func (q Quantity) scaled(k int) int64 {
	e := int(q.exp) + k
	if e >= 0 {
		if e > 19 {
			return saturate(q.n)
		}
		hi, lo := mul64(abs(q.n), pow10[e])
		if hi != 0 || lo > math.MaxInt64 {
			return saturate(q.n)
		}
		if q.n < 0 {
			return -int64(lo)
		}
		return int64(lo)
	}
	p := int64(pow10[-e]) // -e ≤ 9
	v := q.n / p
	if q.n%p != 0 { // round away from zero
		if q.n > 0 {
			v++
		} else {
			v--
		}
	}
	return v
}

func saturate(n int64) int64 {
	if n < 0 {
		return math.MinInt64
	}
	return math.MaxInt64
}

func abs(n int64) uint64 {
	if n < 0 {
		return uint64(-n)
	}
	return uint64(n)
}
