package quantity

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// The errors a *ParseError wraps; test for them with errors.Is.
var (
	// ErrSyntax reports text that is not a quantity: empty, or with a character
	// that fits nowhere (" 1", "1.2.3", "--1").
	ErrSyntax = errors.New("invalid syntax")
	// ErrSuffix reports a number followed by something that is not a suffix ("2Gx",
	// "1Kb", "1e").
	ErrSuffix = errors.New("unknown suffix")
	// ErrRange reports a quantity that is well formed but cannot be held exactly:
	// after rounding up to a multiple of 10^-9 its magnitude exceeds 2^63−1, or its
	// significant digits do not fit an int64; or its exponent is one apimachinery would
	// wrap around. It is also what Add and Sub return on overflow.
	ErrRange = errors.New("value out of range")
)

// ParseError records a failure to parse a quantity. It renders like
//
//	quantity: parsing "2Gx": unknown suffix "x"
//
// with long inputs cut short in the message (Input keeps all of it).
type ParseError struct {
	Input string // the text that was parsed
	At    int    // the byte offset in Input where the error was found
	Err   error  // ErrSyntax, ErrSuffix or ErrRange
}

// Error returns the message, with Input and the suffix quoted and cut to a few dozen
// bytes if longer.
func (e *ParseError) Error() string {
	b := make([]byte, 0, 64)
	b = append(b, "quantity: parsing "...)
	b = appendQuoted(b, e.Input)
	b = append(b, ": "...)
	if e.Err == ErrSuffix && 0 <= e.At && e.At < len(e.Input) {
		b = append(b, "unknown suffix "...)
		b = appendQuoted(b, e.Input[e.At:])
		return string(b)
	}
	b = append(b, e.Err.Error()...)
	return string(b)
}

// Unwrap returns e.Err, so that errors.Is(err, ErrRange) works.
func (e *ParseError) Unwrap() error { return e.Err }

// maxQuoted is how many bytes of an input an error message quotes.
const maxQuoted = 40

// appendQuoted appends s quoted, cut to maxQuoted bytes (on a rune boundary) followed
// by "..." and its length when longer: a 1 MB input makes a short message.
func appendQuoted(b []byte, s string) []byte {
	if len(s) <= maxQuoted {
		return strconv.AppendQuote(b, s)
	}
	cut := maxQuoted
	for cut > maxQuoted-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	b = strconv.AppendQuote(b, s[:cut])
	b = append(b, "... ("...)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(b, " bytes)"...)
}

func syntaxError[T string | []byte](s T, at int) error {
	return &ParseError{Input: string(s), At: at, Err: ErrSyntax}
}

func rangeError[T string | []byte](s T, at int) error {
	return &ParseError{Input: string(s), At: at, Err: ErrRange}
}

// suffixError reports the suffix s[i:], which is none of the known ones. At is past
// the longest known suffix it starts with, so that "2Gx" reports "x" and "1Kb" reports
// "Kb". Text that starts with no letter at all (" 1", "1.2.3") is a syntax error.
func suffixError[T string | []byte](s T, i int) error {
	at := i + knownPrefix(s, i)
	err := ErrSuffix
	if at == i && !isLetter(s[i]) {
		err = ErrSyntax
	}
	return &ParseError{Input: string(s), At: at, Err: err}
}

// knownPrefix returns the length of the longest known suffix s[i:] starts with.
func knownPrefix[T string | []byte](s T, i int) int {
	c := s[i]
	if i+1 < len(s) && s[i+1] == 'i' && binaryShift[c] != 0 {
		return 2
	}
	if c == 'e' || c == 'E' { // an exponent: [eE][+-]?[0-9]+
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j {
			return k - i
		}
	}
	switch c {
	case 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E':
		return 1
	}
	return 0
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
