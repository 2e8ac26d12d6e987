package quantity

// maxNanoDigits is how many digits the largest value has in units of 10^-9:
// (2^63−1)×10^9 < 10^28.
const maxNanoDigits = 28

// exact is the slow path of parse: the value of the nonzero number s[start:end]
// (digits with the point at index point, or point < 0 for none), scaled by 10^exp and
// 2^shift, rounded up (away from zero) to a multiple of 10^-9 as apimachinery's
// arbitrary-precision path rounds it, in format f; or a range error when that rounded
// value does not fit a Quantity. It takes every value parse has no inline case for,
// however many digits it has, in time linear in len(s) and without allocating.
//
// Let D be the integer the digits spell from the first significant one to the last,
// the point skipped, and L its number of digits. With frac digits after the point the
// value is D×10^(exp−frac)×2^shift: in units of 10^-9, D×2^shift/10^k with
// k = frac−exp−9. So the last k digits of D (T) lie below 10^-9 and the first m = L−k
// (H) at or above it (when k ≤ 0, T is empty and H is D×10^−k), and the rounded value is
//
//	H×2^shift + ⌈T×2^shift/10^k⌉   units of 10^-9.
//
// That is at least 10^(m−1), so m > 28 is out of range at once, and otherwise H holds
// in 128 bits. The ceiling multiplies T by 2^shift digit by digit from its last digit
// up, carrying less than 2^shift ≤ 2^60: the carry out of the top is the whole part, and
// any nonzero digit left behind makes the fraction nonzero.
func exact[T string | []byte](s T, neg bool, start, point, end int, exp int64, shift uint, f Format) (Quantity, error) {
	first := start
	for s[first] == '0' || s[first] == '.' { // the number is nonzero: a digit stops this
		first++
	}
	digits := end - first
	frac := 0
	if point >= 0 {
		frac = end - point - 1
		if point > first {
			digits--
		}
	}
	k := int64(frac) - exp - 9
	m := int64(digits) - k
	if m > maxNanoDigits {
		return Quantity{}, rangeError(s, 0)
	}

	// H, from the first min(m, L) digits, then times 10^(m−L) when k < 0.
	var h u128
	j := first
	for n := int64(0); n < min(m, int64(digits)); n++ {
		if s[j] == '.' {
			j++
		}
		h, _ = h.mul(10) // at most 28 digits: no overflow
		h, _ = h.add(u128{0, uint64(s[j] - '0')})
		j++
	}
	if m > int64(digits) {
		h, _ = h.mulPow10(m - int64(digits))
	}
	h, ok := h.shl(shift)
	if !ok || maxNanos.less(h) { // the ceiling only adds to it
		return Quantity{}, rangeError(s, 0)
	}

	// T×2^shift/10^k: its digits s[j:end] from the last up, then the k−L zeros above
	// them when m < 0. With shift 0 the carry stays 0 and only a nonzero digit matters.
	var carry uint64
	sticky := false
	for q := end - 1; q >= j; q-- {
		if s[q] == '.' {
			continue
		}
		v := uint64(s[q]-'0')<<shift + carry // < 10×2^60 < 2^64
		carry = v / 10
		sticky = sticky || v%10 != 0
		if sticky && shift == 0 {
			break
		}
	}
	for n := m; n < 0 && carry != 0; n++ {
		sticky = sticky || carry%10 != 0
		carry /= 10
	}
	if sticky {
		carry++
	}
	nanos, _ := h.add(u128{0, carry}) // h ≤ maxNanos < 2^93, carry ≤ 2^60: no overflow

	q, ok := fromScaled(neg, nanos, -9, f)
	if !ok {
		return Quantity{}, rangeError(s, 0)
	}
	if f == BinarySI {
		q.f = binaryFormat(abs(q.n), int(q.exp))
	}
	return q, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
