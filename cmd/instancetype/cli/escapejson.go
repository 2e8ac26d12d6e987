package cli

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// EscapeJSON returns b, JSON text as encoding/json writes it, with every character that is
// not printable (Escape's rule) and that encoding/json leaves as it is (DEL, the C1
// controls such as U+009B, a terminal's CSI; bidirectional controls; U+FFFD) written as a
// \u escape, so that a JSON reader decodes the same values and a terminal gets no control
// character. (JSON text outside its strings is ASCII, and encoding/json escapes the
// characters below U+0020 in strings.) b is returned as it is when there is nothing to
// escape.
func EscapeJSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if (r >= 0x7f || r == utf8.RuneError) && !printable(r) {
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
		switch {
		case (r >= 0x7f || r == utf8.RuneError) && !printable(r) && r >= 0x10000:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10)&0x3ff, 0xdc00+r&0x3ff)
		case (r >= 0x7f || r == utf8.RuneError) && !printable(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// escapedJSON writes what is written to it through EscapeJSON: for a json.Encoder, which
// writes each value whole, in one call.
type escapedJSON struct{ w io.Writer }

func (e escapedJSON) Write(p []byte) (int, error) {
	if _, err := e.w.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
