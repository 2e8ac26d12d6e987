package quantity

import "math"

// Parse returns the quantity s denotes; the package documentation gives the grammar. It
// accepts exactly the strings resource.ParseQuantity accepts, except values out of range
// (see the package documentation). It never allocates when it succeeds.
//
// On failure it returns the zero Quantity and a *ParseError whose Err is ErrSyntax,
// ErrSuffix or ErrRange.
func Parse(s string) (Quantity, error) { return parse(s) }

// MustParse is like Parse but panics, with the *ParseError, if s is not a quantity. It is
// meant for tests and package-level values with hard-coded strings.
func MustParse(s string) Quantity {
	q, err := parse(s)
	if err != nil {
		panic(err)
	}
	return q
}

// maxDigits is how many significant digits the fast path collects: every 19-digit
// number fits a uint64. A number with more goes to exact.
const maxDigits = 19

// parse is the parser behind Parse, UnmarshalText and UnmarshalJSON. It is one pass
// over s that collects the first significant digits into a uint64 and notes where the
// point is, then reads the suffix. The common values end there, on one of the inline
// cases below; every other value, including numbers with more than 19 significant
// digits, is computed by exact from the positions noted.
func parse[T string | []byte](s T) (Quantity, error) {
	if len(s) == 0 {
		return Quantity{}, syntaxError(s, 0)
	}
	i := 0
	neg := false
	switch s[0] {
	case '-':
		neg = true
		i = 1
	case '+':
		i = 1
	}
	start := i

	// Zeros after a nonzero digit are counted in zeros and multiplied in only when
	// another nonzero digit follows, so that mant never ends in 0: "1500" is mant 15 and
	// 2 zeros, "100m" is mant 1 and 2 zeros, already in the normal form Quantity keeps.
	// Leading zeros are skipped. nd counts the digits of mant and zeros together, so
	// that mant×10^(zeros+1)+c cannot overflow while nd < 19; a nonzero digit beyond
	// that makes the number long, and the loop only goes on to find its end. The digit
	// loop runs once before the point and, if there is one, once after it.
	var mant uint64
	zeros, nd, point := 0, 0, -1
	long := false
	for {
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				break
			}
			if c == 0 {
				if mant != 0 {
					zeros++
					nd++
				}
				continue
			}
			if nd >= maxDigits {
				long = true
				continue
			}
			mant = mant*pow10[zeros+1] + uint64(c)
			nd++
			zeros = 0
		}
		if point >= 0 || i == len(s) || s[i] != '.' {
			break
		}
		point = i
		i++
	}
	end := i
	frac := 0
	if point >= 0 {
		frac = end - point - 1
	}

	// The one-letter and binary suffixes are looked up in tables; anything else must be
	// an exponent.
	f, exp, shift := DecimalSI, int64(0), uint(0)
	if rest := len(s) - i; rest == 1 && suffixPower[s[i]] != noSuffix {
		exp = int64(suffixPower[s[i]])
	} else if rest == 2 && s[i+1] == 'i' && binaryShift[s[i]] != 0 {
		f, shift = BinarySI, uint(binaryShift[s[i]])
	} else if rest > 0 {
		if s[i]|0x20 != 'e' { // 'e' or 'E'
			return Quantity{}, suffixError(s, i)
		}
		// One digit, with or without a sign, is the common case ("1e3", "5e-3"), read
		// here; parseExponent reads the others.
		if c := s[len(s)-1] - '0'; c <= 9 && (rest == 2 || rest == 3 && (s[i+1] == '-' || s[i+1] == '+')) {
			exp = int64(c)
			if s[i+1] == '-' {
				exp = -exp
			}
		} else {
			var ok bool
			if exp, ok = parseExponent(s, i+1); !ok {
				return Quantity{}, exponentError(s, i)
			}
		}
		f = DecimalExponent
		if mant != 0 && exponentRefused(exp, frac) {
			return Quantity{}, rangeError(s, 0)
		}
	}
	if mant == 0 {
		if n := end - start; (n == 0 || n == 1 && point >= 0) && digitlessRefused(f, exp, shift) {
			return Quantity{}, syntaxError(s, start)
		}
		return Quantity{}, nil
	}
	if long {
		return exact(s, neg, start, point, end, exp, shift, f)
	}
	// The number is mant×10^e; the suffix scales it by 10^exp or 2^shift.
	e := int64(zeros - frac)
	if f == BinarySI {
		// A whole number that fits: "2Gi", "1500Mi".
		if e >= 0 && e <= 18 {
			if hi, w := mul64(mant, pow10[e]); hi == 0 && w <= math.MaxInt64>>shift {
				n, tz := trimZeros64(w << shift)
				q := Quantity{n: int64(n), exp: int8(tz), f: BinarySI}
				if neg {
					q.n = -q.n
				}
				return q, nil
			}
		}
		// A fraction with at most nine digits whose product with 2^shift fits: "0.5Gi",
		// "0.2Gi". mant×2^shift×10^e is on the 10^-9 grid, so nothing rounds; dividing
		// out the tens normalizes it.
		if e < 0 && e >= -9 && mant <= math.MaxInt64>>shift {
			n, exp := mant<<shift, int(e)
			for exp < 0 && n%10 == 0 {
				n /= 10
				exp++
			}
			if exp == 0 {
				n, exp = trimZeros64(n)
			}
			q := Quantity{n: int64(n), exp: int8(exp), f: binaryFormat(n, exp)}
			if neg {
				q.n = -q.n
			}
			return q, nil
		}
		return exact(s, neg, start, point, end, exp, shift, f)
	}
	e += exp
	// No rounding, no overflow, nothing to normalize: "100m", "4G", "1e3".
	if e >= -9 && e <= 18 && mant <= maxDiv10[max(e, 0)] {
		n := int64(mant)
		if neg {
			n = -n
		}
		return Quantity{n: n, exp: int8(e), f: f}, nil
	}
	return exact(s, neg, start, point, end, exp, shift, f)
}

// binaryFormat is the format apimachinery gives a value n×10^exp ≠ 0 parsed with a
// binary suffix: DecimalSI below 1, BinarySI otherwise.
func binaryFormat(n uint64, exp int) Format {
	if exp < 0 && n < pow10[-exp] {
		return DecimalSI
	}
	return BinarySI
}

// exponentRefused reports whether a nonzero number with frac fraction digits and the
// decimal exponent exp is refused. apimachinery keeps exponents in an int32 and wraps
// larger ones ("1e4294967296" is 1 to it), and wraps again when subtracting the count of
// fraction digits; rather than a wrong value we report ErrRange. Within those bounds
// the value is exact (or rounds to ±1n, or is out of range by magnitude).
func exponentRefused(exp int64, frac int) bool {
	return exp != int64(int32(exp)) || exp-int64(frac) <= math.MinInt32
}

// digitlessRefused reports whether a number without digits ("", ".", "+", "-.") followed
// by this suffix is refused. apimachinery reads such a number as 0, except on its slow
// path where it hands the text to inf.Dec, which wants a digit: with a binary suffix of
// 2^50 or more ("Pi", "Ei"), or a decimal exponent whose int32 truncation is below −9
// ("e-10").
func digitlessRefused(f Format, exp int64, shift uint) bool {
	switch f {
	case BinarySI:
		return shift >= 50
	case DecimalExponent:
		return int32(exp) < -9
	}
	return false
}

// exponentError reports the exponent suffix s[i:] that parseExponent refused: a range
// error when its digits are all there but do not fit an int64
// ("1e9223372036854775808"), else a suffix error ("1e", "1e+", "1e3x").
func exponentError[T string | []byte](s T, i int) error {
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if j == len(s) {
		return suffixError(s, i)
	}
	for ; j < len(s); j++ {
		if !isDigit(s[j]) {
			return suffixError(s, i)
		}
	}
	return rangeError(s, i)
}

// noSuffix marks the bytes of suffixPower that are no one-letter suffix.
const noSuffix = -128

// suffixPower[c] is the power of ten of the one-letter suffix c, or noSuffix.
var suffixPower = func() (t [256]int8) {
	for i := range t {
		t[i] = noSuffix
	}
	t['n'], t['u'], t['m'], t['k'], t['M'] = -9, -6, -3, 3, 6
	t['G'], t['T'], t['P'], t['E'] = 9, 12, 15, 18
	return t
}()

// binaryShift[c] is the power of two of the binary suffix c+"i", or 0.
var binaryShift = [256]uint8{'K': 10, 'M': 20, 'G': 30, 'T': 40, 'P': 50, 'E': 60}

// parseExponent returns the exponent s[i:] denotes, read as strconv.ParseInt(s[i:], 10,
// 64) reads it: an optional sign and at least one decimal digit, in the int64 range;
// ok is false for anything else. Leading zeros are skipped, so that at most 19 digits
// remain, which a uint64 holds.
func parseExponent[T string | []byte](s T, i int) (exp int64, ok bool) {
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	for i < len(s)-1 && s[i] == '0' {
		i++
	}
	if n := len(s) - i; n == 0 || n > 19 {
		return 0, false
	}
	var u uint64
	for ; i < len(s); i++ {
		c := uint64(s[i] - '0')
		if c > 9 {
			return 0, false
		}
		u = u*10 + c
	}
	switch {
	case neg && u <= 1<<63:
		return -int64(u), true // -int64(1<<63) is math.MinInt64
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	}
	return 0, false
}
