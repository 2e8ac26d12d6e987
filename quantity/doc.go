// Package quantity parses, compares and prints Kubernetes resource quantities ("100m",
// "2Gi", "0.5G", "1e3") without allocating.
//
// It is the fast half of k8s.io/apimachinery/pkg/api/resource: [Parse] accepts the
// strings resource.ParseQuantity accepts and refuses those it refuses, gives them the
// same value, rounded up to a multiple of 10^-9 the same way, the same
// [Quantity.MilliValue] and [Quantity.Value], and [Quantity.String] prints
// apimachinery's canonical form. Unlike apimachinery it never returns a wrong number:
// where apimachinery caps, wraps or overflows silently, Parse returns an error wrapping
// [ErrRange]; and every input, however long or hostile, is parsed in time linear in its
// length.
//
// # Grammar
//
// A quantity is the whole input (no spaces anywhere) matching
//
//	quantity  = [sign] number suffix
//	sign      = "+" | "-"
//	number    = digit* ["." digit*]
//	suffix    = "" | decimalSI | binarySI | exponent
//	decimalSI = "n" | "u" | "m" | "k" | "M" | "G" | "T" | "P" | "E"
//	binarySI  = "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei"
//	exponent  = ("e" | "E") [sign] digit digit*
//	digit     = "0" … "9"
//
// The decimal suffixes scale by 10^-9, 10^-6, 10^-3, 10^3, 10^6, 10^9, 10^12, 10^15
// and 10^18; the binary ones by 2^10 to 2^60; an exponent by 10^exponent.
//
// These odd corners are accepted, as apimachinery accepts them:
//
//   - "1.", ".5", "+1", "007": a point with no digits on one side, a plus sign,
//     leading zeros.
//   - a number with no digits at all, which is 0: "+", "-", ".", "-.", "m", "Ki", "e3".
//   - "E" alone is the exa suffix (10^18), while "1E3" is an exponent.
//   - "n" (nano) and "u" (micro) suffixes, and exponents with a sign or leading zeros:
//     "1e+3", "1E-3", "1e003".
//
// and these are refused with ErrSyntax or ErrSuffix, as apimachinery refuses them:
//
//   - the empty string; spaces (" 1", "1 "); two points ("1.2.3"); two signs ("+-1").
//   - a suffix in another case or spelling ("1ki", "1K", "1KB", "1mi", "1i").
//   - an exponent without digits ("1e", "1e+", "1e-"), or with anything after them.
//   - a number with no digits followed by "Pi", "Ei" or an exponent whose int32
//     truncation is below −9 ("e-10", ".e-10"): apimachinery hands those to its slow
//     path, which wants a digit.
//   - an exponent whose digits do not fit an int64 ("1e9223372036854775808"); we
//     report it with ErrRange.
//
// # Value and range
//
// The value is the number times its suffix, rounded up (away from zero) to a multiple
// of 10^-9: "0.1n" is 1n, "-1.0000000001" is -1000000001n. A Quantity holds it as an
// int64 significand times a power of ten from 10^-9 to 10^18, so Parse refuses, with
// an error wrapping ErrRange:
//
//   - a value whose magnitude exceeds 2^63−1 after rounding ("8Ei", "10E", "1e19",
//     "-9223372036854775808"). apimachinery caps binary values at 2^63−1 ("10Ei" is
//     9223372036854775807 to it) and keeps larger decimal ones in an unbounded decimal
//     whose MilliValue and Value overflow silently.
//   - a value whose significant digits do not fit an int64
//     ("12345678901.234567891" is 12345678901234567891n).
//   - a number with a binary suffix and more than 19 significant digits
//     ("1.0000000000000000001Ki"), whose rounding would need them all.
//   - a nonzero number whose exponent does not fit an int32, or whose exponent less its
//     count of fraction digits falls below −2^31: apimachinery wraps those around
//     ("1e4294967296" is 1 to it, "1e3061300070" never returns).
//
// Zero is always accepted: "0e999999999" is 0.
//
// Every Quantity's Value fits an int64. MilliValue saturates at math.MaxInt64 or
// math.MinInt64 above 9223372036854775.807 in magnitude, where apimachinery returns a
// wrapped or zero number.
//
// # Formats
//
// A quantity remembers the kind of suffix it was written with, its [Format]: BinarySI
// for "Ki" to "Ei", DecimalExponent for "e" and "E" exponents, DecimalSI otherwise. As
// in apimachinery, a value below 1 in magnitude written with a binary suffix
// ("0.0001Ki") gets DecimalSI, and the zero Quantity is DecimalSI whatever its suffix
// was. [Quantity.String] prints in the format, choosing the largest suffix that keeps
// the number whole; a BinarySI value that is not a whole number of at least 1024 in
// magnitude prints as DecimalSI.
package quantity
