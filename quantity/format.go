package quantity

import "strconv"

// maxTextLen bounds the length of a quantity's text: a sign, 19 digits, two zeros and
// a three-byte suffix ("e-9", "e18").
const maxTextLen = 1 + 19 + 2 + 3

// String returns q in apimachinery's canonical form, what resource.Quantity prints for
// a computed value: no sign unless negative, no fraction, and the largest suffix of q's
// format that keeps the number whole. "1.5" is "1500m", "1024Mi" is "1Gi", "+1" is "1",
// "0.2Gi" is "214748364800m" (BinarySI prints as DecimalSI below 1024 in magnitude or
// when not whole). Parse(q.String()) has q's value.
func (q Quantity) String() string {
	var buf [maxTextLen]byte
	return string(q.appendTo(buf[:0]))
}

// AppendText appends the text of q, as String returns it, to b. It never fails, and
// it allocates only if b is too small. It implements encoding.TextAppender.
func (q Quantity) AppendText(b []byte) ([]byte, error) { return q.appendTo(b), nil }

// MarshalText returns the text of q, as String returns it. It implements
// encoding.TextMarshaler and never fails.
func (q Quantity) MarshalText() ([]byte, error) {
	return q.appendTo(make([]byte, 0, maxTextLen)), nil
}

// decimalSuffixes[(exp+9)/3] is the DecimalSI suffix for 10^exp.
var decimalSuffixes = [...]string{"n", "u", "m", "", "k", "M", "G", "T", "P", "E"}

// binarySuffixes[k] is the BinarySI suffix for 1024^k.
var binarySuffixes = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// appendTo is the one formatter behind String, AppendText, MarshalText and
// MarshalJSON.
func (q Quantity) appendTo(b []byte) []byte {
	if q.n == 0 {
		return append(b, '0')
	}
	if q.f == BinarySI && q.exp >= 0 {
		// A whole number: print it as a count of the largest power of 1024 dividing it,
		// unless it is below 1024 in magnitude. Fractions print as DecimalSI.
		v := q.n * int64(pow10[q.exp]) // |v| ≤ MaxInt64 by the invariant
		if v <= -1024 || v >= 1024 {
			k := 0
			for k < len(binarySuffixes)-1 && v%1024 == 0 {
				v /= 1024
				k++
			}
			b = strconv.AppendInt(b, v, 10)
			return append(b, binarySuffixes[k]...)
		}
	}
	// Make the exponent a multiple of three by moving one or two zeros into the
	// number: 15×10^2 prints "1500", 2147483648×10^-1 prints "214748364800m".
	e := int(q.exp)
	pad := (e%3 + 3) % 3
	e -= pad
	b = strconv.AppendInt(b, q.n, 10)
	b = append(b, "00"[:pad]...)
	if q.f == DecimalExponent {
		if e == 0 {
			return b
		}
		b = append(b, 'e')
		return strconv.AppendInt(b, int64(e), 10)
	}
	return append(b, decimalSuffixes[(e+9)/3]...)
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
