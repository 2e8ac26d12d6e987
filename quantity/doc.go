// Package quantity parses, compares and prints Kubernetes resource quantities ("100m",
// "2Gi", "0.5G", "1e3") without allocating.
//
// It is the fast half of k8s.io/apimachinery/pkg/api/resource: [Parse] accepts the
// strings resource.ParseQuantity accepts and refuses those it refuses, gives them the
// same value, rounded up to a multiple of 10^-9 the same way however many digits they
// have, the same [Quantity.MilliValue] and [Quantity.Value], and [Quantity.String]
// prints apimachinery's canonical form. Unlike apimachinery it never returns a wrong
// number: where apimachinery caps, wraps or overflows silently, Parse returns an error
// wrapping [ErrRange]; where apimachinery's MilliValue or Value of a negative value is
// wrong, ours is exact (see "Value and MilliValue" below); and every input, however
// long or hostile, is parsed in time linear in its length.
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
// of 10^-9, however many digits the number has; apimachinery rounds the same way, on
// its arbitrary-precision path. "0.1n" is 1n, "-1.0000000001" is -1000000001n, and
// "050.10679935660691460504Ki", which is 51309.362541165480555…, is 51309362541166n.
// A Quantity holds the rounded value as an int64 significand times a power of ten
// from 10^-9 to 10^18, so Parse refuses, with an error wrapping ErrRange, only what
// that cannot hold:
//
//   - a rounded value whose magnitude exceeds 2^63−1 ("8Ei", "10E", "1e19",
//     "-9223372036854775808", "9007199254740991.99902343750001Ki"). apimachinery caps
//     binary values at 2^63−1 ("10Ei" is 9223372036854775807 to it) and keeps larger
//     decimal ones in an unbounded decimal whose MilliValue and Value overflow
//     silently. 2^63−1 itself is accepted ("9223372036854775807",
//     "9007199254740991.9990234375Ki").
//   - a rounded value whose significant digits do not fit an int64:
//     "12345678901.234567891" is 12345678901234567891n, and so is
//     "12345678901.2345678901" once rounded.
//   - a nonzero number whose exponent does not fit an int32, or whose exponent less its
//     count of fraction digits falls below −2^31: apimachinery wraps those around
//     ("1e4294967296" is 1 to it, "1e3061300070" never returns).
//
// Zero is always accepted: "0e999999999" is 0. Parse is linear in the length of its
// input whatever its digits and exponent.
//
// # Value and MilliValue
//
// Every Quantity's [Quantity.Value] fits an int64. [Quantity.MilliValue] saturates at
// math.MaxInt64 or math.MinInt64 above 9223372036854775.807 in magnitude, where
// apimachinery returns a wrapped or zero number.
//
// Both round up, away from zero: "1.5" has Value 2, "-1.5" −2, as apimachinery's own
// Value and MilliValue give for the values it holds in an int64. For negative values
// it holds in its arbitrary-precision decimal (for instance a fraction with a binary
// suffix, more than 18 digits, or digits below 10^-9) apimachinery's are wrong, and
// ours are exact: where the value is not a whole number of the unit, apimachinery
// rounds toward zero and then adds one, and where the value is below
// −9223372036.854775808 its int64 arithmetic wraps. With resource.ParseQuantity from
// apimachinery v0.37.2:
//
//	input                           MilliValue, Value (ours)          apimachinery's
//	-0.2Gi                          -214748364800, -214748365         -214748364800, -214748363
//	-3e-12                          -1, -1                            1, 1
//	-1.0000000001                   -1001, -2                         -999, 0
//	-050.10679935660691460504Ki     -51309363, -51310                 -51309361, -51308
//	-1.025Ti                        -1126999418470400, -1126999418471 -1748029974116, -1748029973
//
// Positive values are right in both, and so are whole negative values from
// −9223372036.854775808 up ("-1.5Gi"); below it even a whole one wraps: "-10.0Ti" has
// MilliValue −856809829106 in apimachinery, while "-10Ti", on its int64 path, has
// −10995116277760000, as both have in ours.
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
