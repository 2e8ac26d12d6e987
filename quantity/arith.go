package quantity

import "fmt"

// errOverflow is what Add and Sub return; it wraps ErrRange.
var errOverflow = fmt.Errorf("quantity: arithmetic overflow: %w", ErrRange)

// Add returns q + r, exactly. The result has q's format, or r's if q is zero, as
// resource.Quantity.Add gives it. When the sum's magnitude exceeds 2^63−1 or its
// significant digits do not fit an int64 ("1E" + "1n"), it returns the zero Quantity
// and an error wrapping ErrRange, where apimachinery would switch to an unbounded
// decimal. It never allocates.
func (q Quantity) Add(r Quantity) (Quantity, error) {
	f := q.f
	if q.n == 0 {
		f = r.f
	}
	if r.n == 0 {
		return q.WithFormat(f), nil
	}
	if q.exp == r.exp { // the common case: int64 arithmetic, then renormalize
		sum := q.n + r.n
		if (sum > q.n) == (r.n > 0) { // no overflow
			if sum == 0 {
				return Quantity{}, nil
			}
			m, tz := trimZeros64(abs(sum))
			exp := int(q.exp) + tz
			if exp <= 18 && m <= maxDiv10[max(exp, 0)] {
				return Quantity{n: sign(sum) * int64(m), exp: int8(exp), f: f}, nil
			}
			return Quantity{}, errOverflow
		}
	}
	// Bring both to units of 10^-9 in 128 bits (|x| ≤ (2^63−1)×10^9 < 2^93).
	a, b := q.nanos(), r.nanos()
	var mag u128
	neg := q.n < 0
	switch {
	case (q.n < 0) == (r.n < 0):
		mag, _ = a.add(b) // < 2^94: no overflow
	case b.less(a):
		mag = a.sub(b)
	default:
		mag = b.sub(a)
		neg = r.n < 0
	}
	v, ok := fromScaled(neg, mag, -9, f)
	if !ok {
		return Quantity{}, errOverflow
	}
	return v, nil
}

// Sub returns q − r, exactly, as Add(r.Neg()) does: with q's format, or r's if q is
// zero, and an error wrapping ErrRange on overflow.
func (q Quantity) Sub(r Quantity) (Quantity, error) { return q.Add(r.Neg()) }

// nanos returns |q| in units of 10^-9.
func (q Quantity) nanos() u128 {
	x, _ := u128{0, abs(q.n)}.mulPow10(int64(q.exp) + 9)
	return x
}

func sign(n int64) int64 {
	if n < 0 {
		return -1
	}
	return 1
}
