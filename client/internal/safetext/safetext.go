// Package safetext makes text this module did not write (an API server's error messages,
// object names, label values, continue tokens) safe to print: on a terminal, where a
// control character can set the window's title (ESC ] 0 ; … BEL), clear the screen
// (ESC [ 2 J) or forge a line, and in a CI log, where a runner takes some lines for its
// commands. It is the client module's copy of what the root module's command
// (cmd/instancetype/cli) does to its own output, so that the kubectl plugin's output is
// as safe as instancetype's: two modules versioned apart share no private code.
//
// Line escapes control characters as kubectl escapes terminal special characters since
// CVE-2021-25743 (k8s.io/cli-runtime/pkg/printers.EscapeTerminal), and more: every
// character that is not printable becomes a visible Go escape (\x1b, \r, \n, \a, \u202e),
// so that no ESC, CR, LF or BEL from the text reaches the terminal. A Guard rewrites whole
// lines so that no CI runner takes one for a command (see Guard).
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/amlarc-go/instancetypes/client/internal/clip"
)

// MaxMessage is the longest message Message repeats, in bytes, as the root module's
// command cuts its messages.
const MaxMessage = 2048

// Line returns s safe to print as part of one line: line breaks, other control
// characters (terminal escapes among them), invalid UTF-8 and the characters that
// reorder text (bidirectional controls) are written escaped, as %q would write them,
// so that the text cannot forge a line of output or drive the terminal. Text with
// nothing to escape is returned as it is, without allocating.
func Line(s string) string {
	clean := true
	for _, r := range s {
		if !Printable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Printable(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// Message returns a message that repeats text from elsewhere (an error of the API
// server): cut to MaxMessage bytes, then escaped by Line, so that it is one line of plain
// text of bounded length whatever it holds.
func Message(s string) string { return Line(clip.To(s, MaxMessage)) }

// Printable reports whether r is safe on one line of a terminal: a graphic character or
// a space, not a bidirectional control, not U+FFFD (what invalid UTF-8 decodes to).
func Printable(r rune) bool {
	return r != utf8.RuneError && unicode.IsPrint(r) && !unicode.Is(unicode.Bidi_Control, r)
}

// JSON returns b, JSON text as encoding/json writes it, with every character that is not
// Printable and that encoding/json leaves as it is (DEL, the C1 controls such as U+009B,
// a terminal's CSI; bidirectional controls; U+FFFD) written as a \u escape, so that a
// JSON reader decodes the same values and a terminal gets no control character. (JSON
// text outside its strings is ASCII, and encoding/json escapes the characters below
// U+0020 in strings.) b is returned as it is when there is nothing to escape.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if (r >= 0x7f || r == utf8.RuneError) && !Printable(r) {
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	out := append(make([]byte, 0, len(b)+32), b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if (r >= 0x7f || r == utf8.RuneError) && !Printable(r) {
			if r1, r2 := utf16Pair(r); r2 != 0 {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// utf16Pair returns r's surrogate pair, or r and 0 for a character of the BMP.
func utf16Pair(r rune) (rune, rune) {
	if r < 0x10000 {
		return r, 0
	}
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
