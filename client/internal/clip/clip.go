// Package clip shortens the text the webhook repeats from a request (names, field paths,
// errors), so that a request of megabytes cannot make an answer of megabytes. It cuts as
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
func String(s string) string {
	if len(s) <= MaxLen {
		return s
	}
	n := MaxLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
