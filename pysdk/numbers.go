package pysdk

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// pyNumber returns str() of the Python number literal text, as azure-ai-ml's REST
// serializer writes a number given where it takes a string: an int in decimal (0x10 is
// "16", 1_000 is "1000"), a float as Python's repr (shortest round trip; fixed notation
// with at least one decimal when the decimal exponent is in (-4, 16], else d.ddde±XX). ok
// is false for text that is not a number.
func pyNumber(text string, isInt bool) (string, bool) {
	if isInt {
		var n big.Int
		if _, ok := n.SetString(text, 0); !ok {
			// Python's 0-prefixed decimals (00, 0_0) are 0; Go reads 0_0 as octal, also 0.
			return "", false
		}
		return n.String(), true
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil && !math.IsInf(f, 0) {
		return "", false
	}
	return pyFloatRepr(f), true
}

// pyFloatRepr is Python's repr of a non-negative float.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case f == 0:
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := x + 1 // the position of the decimal point after the first digit
	if -4 < decpt && decpt <= 16 {
		switch {
		case decpt <= 0:
			return "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			return digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			return digits[:decpt] + "." + digits[decpt:]
		}
	}
	s := digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	sign := "+"
	if x < 0 {
		sign, x = "-", -x
	}
	xs := strconv.Itoa(x)
	if len(xs) < 2 {
		xs = "0" + xs
	}
	return s + "e" + sign + xs
}
