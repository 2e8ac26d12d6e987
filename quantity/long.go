package quantity

// parseLong parses s whose number has more than 19 significant digits, which parse
// hands over on seeing the 20th. It keeps the first 19 significant digits and reads the
// others only for how they round, so it is linear in len(s) and allocates nothing.
func parseLong[T string | []byte](s T) (Quantity, error) {
	i := 0
	neg := false
	switch s[0] {
	case '-':
		neg = true
		i = 1
	case '+':
		i = 1
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intLen := i - intStart
	fracStart, fracLen := i, 0
	if i < len(s) && s[i] == '.' {
		i++
		fracStart = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracLen = i - fracStart
	}
	f, exp, shift, err := parseSuffix(s, i)
	if err != nil {
		return Quantity{}, err
	}
	if f == DecimalExponent && exponentRefused(exp, fracLen) {
		return Quantity{}, rangeError(s, 0)
	}

	// digit returns the j-th digit of the number, the point skipped.
	digit := func(j int) byte {
		if j < intLen {
			return s[intStart+j] - '0'
		}
		return s[fracStart+j-intLen] - '0'
	}
	total := intLen + fracLen
	first := 0
	for digit(first) == 0 { // parse saw more than 19 significant digits
		first++
	}
	last := first + maxDigits - 1
	var w uint64 // the first 19 significant digits
	for j := first; j <= last; j++ {
		w = w*10 + uint64(digit(j))
	}
	sticky := false // whether a digit after them is nonzero
	for j := last + 1; j < total && !sticky; j++ {
		sticky = digit(j) != 0
	}
	// The number is (w + δ)×10^u, 0 ≤ δ < 1, δ > 0 exactly when sticky.
	u := int64(intLen-1-last) + exp

	if f == BinarySI {
		if sticky { // rounding would need more than 19 digits of the number: refused
			return Quantity{}, rangeError(s, 0)
		}
		return binarySlow(s, neg, w, u, shift)
	}
	if !sticky {
		return finish(s, neg, u128{0, w}, u, f)
	}
	// Round (w + δ)×10^u up to a multiple of 10^-9. a is how many of the digits after w
	// lie at or above 10^-9.
	a := u + 9
	if a <= 0 { // δ lies below 10^-9: the result is ⌊w×10^a⌋ + 1 units of 10^-9
		n := w
		if -a >= int64(len(pow10)) {
			n = 0
		} else {
			n /= pow10[-a]
		}
		return finish(s, neg, u128{0, n + 1}, -9, f)
	}
	// The result is w×10^a + t units of 10^-9, where t, 0 < t ≤ 10^a, is the next a
	// digits rounded up. Below 10^a the result has more than 19 significant digits
	// (w ≥ 10^18): out of range. t is 10^a only when those a digits are all 9 and a
	// nonzero digit follows them; then the result is (w+1)×10^u.
	j := last + 1
	for ; j < total && int64(j-last) <= a; j++ {
		if digit(j) != 9 {
			return Quantity{}, rangeError(s, 0)
		}
	}
	if int64(j-last) <= a { // fewer than a digits after w
		return Quantity{}, rangeError(s, 0)
	}
	for ; j < total; j++ {
		if digit(j) != 0 {
			return finish(s, neg, u128{0, w + 1}, u, f)
		}
	}
	return Quantity{}, rangeError(s, 0)
}

// finish returns fromScaled(neg, p, e, f), or a range error for s.
func finish[T string | []byte](s T, neg bool, p u128, e int64, f Format) (Quantity, error) {
	q, ok := fromScaled(neg, p, e, f)
	if !ok {
		return Quantity{}, rangeError(s, 0)
	}
	return q, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
