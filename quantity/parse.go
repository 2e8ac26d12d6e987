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
// number fits a uint64. Longer numbers go to parseLong.
const maxDigits = 19

// parse is the parser behind Parse, UnmarshalText and UnmarshalJSON. It is one pass
// over s that collects the significant digits into a uint64, then reads the suffix.
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
	// that mant×10^(zeros+1)+c cannot overflow while nd < 19.
	var mant uint64
	zeros, nd, frac := 0, 0, 0
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
			return parseLong(s)
		}
		mant = mant*pow10[zeros+1] + uint64(c)
		nd++
		zeros = 0
	}
	digits := i > start
	if i < len(s) && s[i] == '.' {
		i++
		fracStart := i
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
				return parseLong(s)
			}
			mant = mant*pow10[zeros+1] + uint64(c)
			nd++
			zeros = 0
		}
		frac = i - fracStart
		digits = digits || frac > 0
	}

	// The one-letter and binary suffixes are looked up here; parseSuffix does the
	// rest (exponents, errors).
	f, exp, shift := DecimalSI, int64(0), uint(0)
	if rest := len(s) - i; rest == 1 && suffixPower[s[i]] != noSuffix {
		exp = int64(suffixPower[s[i]])
	} else if rest == 2 && s[i+1] == 'i' && binaryShift(s[i]) != 0 {
		f, shift = BinarySI, binaryShift(s[i])
	} else if x, ok := shortExponent(s, i); ok {
		f, exp = DecimalExponent, x
	} else if rest > 0 {
		var err error
		if f, exp, shift, err = parseSuffix(s, i); err != nil {
			return Quantity{}, err
		}
	}
	if mant == 0 {
		if !digits && digitlessRefused(f, exp, shift) {
			return Quantity{}, syntaxError(s, start)
		}
		return Quantity{}, nil
	}
	// The number is mant×10^e; the suffix scales it by 10^exp or 2^shift.
	e := int64(zeros - frac)
	if f == BinarySI {
		// The common case inline: a whole number that fits ("2Gi", "1500Mi").
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
		// And one fraction digit ("0.5Gi", "0.2Gi"): whole when n is a multiple of 10.
		if e == -1 && mant <= math.MaxInt64>>shift {
			n, exp := mant<<shift, -1
			if n%10 == 0 {
				n, exp = trimZeros64(n / 10)
			}
			q := Quantity{n: int64(n), exp: int8(exp), f: binaryFormat(n, exp)}
			if neg {
				q.n = -q.n
			}
			return q, nil
		}
		if q, ok := binaryFast(neg, mant, e, shift); ok {
			return q, nil
		}
		return binarySlow(s, neg, mant, e, shift)
	}
	if f == DecimalExponent && exponentRefused(exp, frac) {
		return Quantity{}, rangeError(s, 0)
	}
	e += exp
	// The common case: no rounding, no overflow, nothing to normalize ("100m", "4G").
	if e >= -9 && e <= 18 && mant <= maxDiv10[max(e, 0)] {
		n := int64(mant)
		if neg {
			n = -n
		}
		return Quantity{n: n, exp: int8(e), f: f}, nil
	}
	q, ok := fromScaled(neg, u128{0, mant}, e, f)
	if !ok {
		return Quantity{}, rangeError(s, 0)
	}
	return q, nil
}

// binaryFast returns ±mant×10^e×2^shift for a number with a binary suffix, when that
// is a whole number or a short fraction computed in 64 bits; ok is false otherwise
// (out of range, 128 bits or rounding needed: see binarySlow).
func binaryFast(neg bool, mant uint64, e int64, shift uint) (q Quantity, ok bool) {
	var n uint64
	var exp int
	switch {
	case e >= 0: // A whole number: "2Gi", "1500Mi".
		if e > 18 {
			return Quantity{}, false
		}
		hi, w := mul64(mant, pow10[e])
		if hi != 0 || w > math.MaxInt64>>shift {
			return Quantity{}, false
		}
		n, exp = trimZeros64(w << shift)
	case e >= -9 && mant <= math.MaxUint64>>shift: // A short fraction: "0.5Gi" is 5×2^30/10.
		n = mant << shift
		exp = int(e)
		for exp < 0 && n%10 == 0 {
			n /= 10
			exp++
		}
		if exp == 0 {
			n, exp = trimZeros64(n)
		} else if n > math.MaxInt64 {
			return Quantity{}, false
		}
	default:
		return Quantity{}, false
	}
	q = Quantity{n: int64(n), exp: int8(exp), f: binaryFormat(n, exp)}
	if neg {
		q.n = -q.n
	}
	return q, true
}

// binarySlow is binaryFast for values that need 128 bits or rounding, or are out of
// range.
func binarySlow[T string | []byte](s T, neg bool, mant uint64, e int64, shift uint) (Quantity, error) {
	p := u128{0, mant}
	ok := true
	if e >= 0 {
		p, ok = p.mulPow10(e)
		e = 0
	}
	if ok {
		p, ok = p.shl(shift)
	}
	var q Quantity
	if ok {
		q, ok = fromScaled(neg, p, e, BinarySI)
	}
	if !ok {
		return Quantity{}, rangeError(s, 0)
	}
	q.f = binaryFormat(abs(q.n), int(q.exp))
	return q, nil
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

// parseSuffix reads the suffix s[i:]: the format, the power of ten it scales by, and the
// power of two for a binary suffix.
func parseSuffix[T string | []byte](s T, i int) (f Format, exp int64, shift uint, err error) {
	switch len(s) - i {
	case 0:
		return DecimalSI, 0, 0, nil
	case 1:
		switch s[i] {
		case 'm':
			exp = -3
		case 'k':
			exp = 3
		case 'M':
			exp = 6
		case 'G':
			exp = 9
		case 'T':
			exp = 12
		case 'P':
			exp = 15
		case 'E':
			exp = 18
		case 'u':
			exp = -6
		case 'n':
			exp = -9
		default:
			return 0, 0, 0, suffixError(s, i)
		}
		return DecimalSI, exp, 0, nil
	case 2:
		if s[i+1] == 'i' {
			if shift = binaryShift(s[i]); shift != 0 {
				return BinarySI, 0, shift, nil
			}
			return 0, 0, 0, suffixError(s, i)
		}
	}
	if s[i] != 'e' && s[i] != 'E' {
		return 0, 0, 0, suffixError(s, i)
	}
	exp, st := parseExponent(s, i+1)
	switch st {
	case exponentSyntax:
		return 0, 0, 0, suffixError(s, i)
	case exponentRange:
		return 0, 0, 0, rangeError(s, i)
	}
	return DecimalExponent, exp, 0, nil
}

// shortExponent reads s[i:] when it is an exponent of at most three digits ("e3",
// "E-6"), the fast path of parseSuffix.
func shortExponent[T string | []byte](s T, i int) (int64, bool) {
	if n := len(s) - i; n < 2 || n > 5 || s[i]|0x20 != 'e' {
		return 0, false
	}
	i++
	neg := s[i] == '-'
	if neg || s[i] == '+' {
		i++
	}
	if i == len(s) || len(s)-i > 3 {
		return 0, false
	}
	var v int64
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		v = v*10 + int64(c)
	}
	if neg {
		v = -v
	}
	return v, true
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

// binaryShift returns the power of two of the binary suffix c+"i", or 0.
func binaryShift(c byte) uint {
	switch c {
	case 'K':
		return 10
	case 'M':
		return 20
	case 'G':
		return 30
	case 'T':
		return 40
	case 'P':
		return 50
	case 'E':
		return 60
	}
	return 0
}

type exponentStatus uint8

const (
	exponentOK exponentStatus = iota
	exponentSyntax
	exponentRange
)

// parseExponent reads s[i:] as strconv.ParseInt(s[i:], 10, 64) does: an optional sign
// and at least one decimal digit, in the int64 range.
func parseExponent[T string | []byte](s T, i int) (int64, exponentStatus) {
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return 0, exponentSyntax
	}
	var u uint64 // the magnitude, up to 2^63 (the magnitude of math.MinInt64)
	over := false
	for ; i < len(s); i++ {
		c := uint64(s[i] - '0')
		if c > 9 {
			return 0, exponentSyntax
		}
		if over || u > (1<<63-c)/10 {
			over = true // keep going: a later non-digit is a syntax error
			continue
		}
		u = u*10 + c
	}
	switch {
	case over, !neg && u > math.MaxInt64:
		return 0, exponentRange
	case neg:
		return -int64(u), exponentOK // -int64(1<<63) is math.MinInt64
	}
	return int64(u), exponentOK
}
