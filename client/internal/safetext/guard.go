package safetext

import (
	"bytes"
	"io"
	"unicode"
)

// CI runners read a job's log for commands, whatever program printed the line. GitHub
// Actions' runner takes a line that starts with "::" (after white space, as .NET's
// TrimStart removes it) for a workflow command (::warning::…, ::add-mask::…), and "##["
// anywhere in a line for one in the older form (##[set-output name=x;]…); Azure Pipelines
// reads "##vso[" anywhere in a line, TeamCity "##teamcity[". A name or a message from the
// API server could so mask secrets, set outputs or forge annotations. A Guard rewrites
// each line so that no runner takes it for a command: the "[" of "##", any letters, "[",
// and the first ":" of a line that starts with "::" are written escaped, as the output's
// format escapes a character (Go's \x5b in text, \u005b in JSON), so that a person still
// reads the text and a JSON reader decodes the same value. It is the rule of the root
// module's command for its own output.

// Style says how a Guard escapes the two characters.
type Style struct {
	bracket, colon string
}

var (
	// Text escapes them as Go escapes them: \x5b and \x3a.
	Text = Style{`\x5b`, `\x3a`}
	// JSONText escapes them as JSON does: \u005b and \u003a (inside JSON strings, the only
	// place these characters stand in JSON text).
	JSONText = Style{`\u005b`, `\u003a`}
)

// Guard is an io.Writer that writes each line to its writer once the line is complete
// (Flush writes the rest), rewritten so that no CI runner takes it for a command.
type Guard struct {
	w     io.Writer
	style Style
	line  []byte
	err   error
}

// NewGuard returns a Guard over w that escapes in style.
func NewGuard(w io.Writer, style Style) *Guard { return &Guard{w: w, style: style} }

// Write buffers p up to its last line break and writes the complete lines, guarded. It
// returns len(p), or 0 and the first error of the writer.
func (g *Guard) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && g.err == nil {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			g.line = append(g.line, p...)
			break
		}
		g.line = append(g.line, p[:i+1]...)
		p = p[i+1:]
		g.writeLine()
	}
	if g.err != nil {
		return 0, g.err
	}
	return n, nil
}

// Flush writes what is left of an unfinished line, and returns the first error of the
// writer.
func (g *Guard) Flush() error {
	if len(g.line) > 0 && g.err == nil {
		g.writeLine()
	}
	return g.err
}

func (g *Guard) writeLine() {
	_, g.err = g.w.Write(GuardLine(g.line, g.style))
	g.line = g.line[:0]
}

// GuardLine returns line (one line, with or without its line break) rewritten so that no
// CI runner takes it for a command; line itself when nothing needs escaping.
func GuardLine(line []byte, s Style) []byte {
	colon := -1
	if rest := bytes.TrimLeftFunc(line, unicode.IsSpace); bytes.HasPrefix(rest, []byte("::")) {
		colon = len(line) - len(rest)
	}
	var out []byte
	from := 0 // line[from:] is not yet in out
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte("##"))
		if j < 0 {
			break
		}
		k := i + j + 2
		for k < len(line) && ('a' <= line[k] && line[k] <= 'z' || 'A' <= line[k] && line[k] <= 'Z') {
			k++
		}
		if k < len(line) && line[k] == '[' {
			if colon >= from && colon < k {
				out = append(append(out, line[from:colon]...), s.colon...)
				from = colon + 1
			}
			out = append(append(out, line[from:k]...), s.bracket...)
			from = k + 1
		}
		i += j + 1
	}
	if colon >= from {
		out = append(append(out, line[from:colon]...), s.colon...)
		from = colon + 1
	}
	if out == nil {
		return line
	}
	return append(out, line[from:]...)
}
