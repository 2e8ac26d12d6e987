// Package clip shortens user-supplied text for messages, so that a megabyte of input cannot
// make a megabyte of output. It is the one place the SDK decides how much of a value a
// message repeats.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// MaxLen is the longest user-supplied text a message repeats. Longer text is cut to this
// many bytes, at a UTF-8 boundary, and marked with the length it had.
const MaxLen = 256

// String returns s, or for text longer than MaxLen its first MaxLen bytes followed by
// "... (N bytes)". It allocates only when it cuts.
func String(s string) string { return To(s, MaxLen) }

// To returns s, or for text longer than max bytes its first max bytes (at a UTF-8
// boundary) followed by "... (N bytes)": for longer text than a value, such as a whole
// message that quotes values, or a field path. It allocates only when it cuts.
func To(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Quote returns String(s) in double quotes, with Go escapes, for use inside a message.
func Quote(s string) string { return strconv.Quote(String(s)) }
