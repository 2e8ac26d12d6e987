package quantity

import (
	"math"
	"math/bits"
)

// This file holds the exact arithmetic behind the slow paths: 128-bit unsigned
// integers, powers of ten, and rounding to the nano grid.

// pow10[i] is 10^i; 10^19 is the largest power of ten a uint64 holds.
var pow10 = [20]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// maxDiv10[i] is math.MaxInt64 / 10^i: a significand n with exponent i ≥ 0 is in range
// when n ≤ maxDiv10[i].
var maxDiv10 = func() (t [19]uint64) {
	for i := range t {
		t[i] = math.MaxInt64 / pow10[i]
	}
	return t
}()

func mul64(a, b uint64) (hi, lo uint64) { return bits.Mul64(a, b) }

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

// maxNanos is (2^63−1)×10^9: the largest magnitude, counted in units of 10^-9.
var maxNanos = func() u128 {
	hi, lo := mul64(math.MaxInt64, 1e9)
	return u128{hi, lo}
}()

func (x u128) isZero() bool { return x.hi == 0 && x.lo == 0 }

func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// mul returns x×y and whether it fits.
func (x u128) mul(y uint64) (u128, bool) {
	hi, lo := bits.Mul64(x.lo, y)
	h2, l2 := bits.Mul64(x.hi, y)
	hi, c := bits.Add64(hi, l2, 0)
	return u128{hi, lo}, h2 == 0 && c == 0
}

// mulPow10 returns x×10^k, k ≥ 0, and whether it fits.
func (x u128) mulPow10(k int64) (u128, bool) {
	for k > 0 {
		step := min(k, 19)
		var ok bool
		if x, ok = x.mul(pow10[step]); !ok {
			return u128{}, false
		}
		k -= step
	}
	return x, true
}

// shl returns x<<s, s < 64, and whether it fits.
func (x u128) shl(s uint) (u128, bool) {
	if s == 0 {
		return x, true
	}
	if x.hi>>(64-s) != 0 {
		return u128{}, false
	}
	return u128{x.hi<<s | x.lo>>(64-s), x.lo << s}, true
}

func (x u128) add(y u128) (u128, bool) {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, c := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}, c == 0
}

// sub returns x−y for y ≤ x.
func (x u128) sub(y u128) u128 {
	lo, b := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, b)
	return u128{hi, lo}
}

// divmod returns x/y and x%y, y ≠ 0.
func (x u128) divmod(y uint64) (u128, uint64) {
	q1, r := x.hi/y, x.hi%y
	q0, r := bits.Div64(r, x.lo, y)
	return u128{q1, q0}, r
}

// ceilDivPow10 returns ⌈x/10^k⌉ for x ≠ 0, k ≥ 0. It divides by at most 10^19 at a
// time: ⌈⌈x/a⌉/b⌉ = ⌈x/(a×b)⌉ for positive integers.
func (x u128) ceilDivPow10(k int64) u128 {
	if k >= 39 { // 10^39 > 2^128 > x > 0
		return u128{0, 1}
	}
	for k > 0 {
		step := min(k, 19)
		q, r := x.divmod(pow10[step])
		if r != 0 {
			q, _ = q.add(u128{0, 1})
		}
		x = q
		k -= step
	}
	return x
}

// trimZeros returns x ≠ 0 without its trailing decimal zeros, and how many there were.
func (x u128) trimZeros() (u128, int) {
	n := 0
	for x.hi != 0 {
		q, r := x.divmod(10)
		if r != 0 {
			return x, n
		}
		x = q
		n++
	}
	lo, k := trimZeros64(x.lo)
	return u128{0, lo}, n + k
}

// trimZeros64 returns x ≠ 0 without its trailing decimal zeros, and how many there were.
func trimZeros64(x uint64) (uint64, int) {
	n := 0
	for x%10 == 0 {
		x /= 10
		n++
	}
	return x, n
}

// fromScaled returns the Quantity ±p×10^e (negative if neg) rounded up, away from zero,
// to a multiple of 10^-9, in format f. It reports false when the rounded value's
// magnitude exceeds 2^63−1 or its significand does not fit an int64.
func fromScaled(neg bool, p u128, e int64, f Format) (Quantity, bool) {
	if p.isZero() {
		return Quantity{}, true
	}
	var x u128 // the magnitude in units of 10^-9
	if e >= -9 {
		if e > 18 { // p ≥ 1, so the value is at least 10^19
			return Quantity{}, false
		}
		var ok bool
		if x, ok = p.mulPow10(e + 9); !ok {
			return Quantity{}, false
		}
	} else {
		x = p.ceilDivPow10(-9 - e)
	}
	if maxNanos.less(x) {
		return Quantity{}, false
	}
	m, tz := x.trimZeros()
	if m.hi != 0 || m.lo > math.MaxInt64 { // more significant digits than an int64 holds
		return Quantity{}, false
	}
	n := int64(m.lo)
	if neg {
		n = -n
	}
	return Quantity{n: n, exp: int8(tz - 9), f: f}, true // x ≤ maxNanos < 10^28: tz ≤ 27
}
