// Package clip shortens the text the webhook repeats from a request (names, field paths,
// errors), and the kubectl plugin from an API server's answer, so that a request or an
// answer of megabytes cannot make an answer or a message of megabytes. It cuts as
// the root module's messages do, so that an answer and the command's output agree.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// MaxLen is the longest text repeated whole.
const MaxLen = 256

// String returns s, or for text longer than MaxLen bytes its first MaxLen bytes (at a UTF-8
// boundary) followed by "... (N bytes)". It allocates only when it cuts.
func String(s string) string { return To(s, MaxLen) }

// To returns s, or for text longer than max bytes its first max bytes (at a UTF-8
// boundary) followed by "... (N bytes)": for text longer than a value, such as a whole
// message that quotes values. It allocates only when it cuts.
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
