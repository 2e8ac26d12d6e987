package cli

import (
	"bytes"
	"io"
	"unicode"
)

// CI runners read a job's log for commands, whatever program printed the line. GitHub
// Actions' runner takes a line that starts with "::" (after white space, as .NET's
// TrimStart removes it) for a workflow command (::warning::…, ::add-mask::…), and "##["
// anywhere in a line for one in the older form (##[set-output name=x;]…); Azure Pipelines
// reads "##vso[" anywhere in a line, TeamCity "##teamcity[". A file name or a value in the
// output could so mask secrets, set outputs or forge annotations. A guard rewrites each
// line the command prints so that no runner takes it for a command: the "[" of "##", any
// letters, "[" and the first ":" of a line that starts with "::" are written escaped, as
// the format escapes a character (Go's \x5b in text, \u005b in JSON, &#91; in XML), so
// that a person still reads the text and a JSON or XML reader decodes the same value.
//
// The -o github output is the one whose lines are commands on purpose, each whole: the
// runner reads a line that starts with "::" as that one command (it looks for "##[" only
// in a line that is not one), and the values in it are escaped as the runner unescapes
// them (github.go). It is left as it is.

// guardStyle says how a guard escapes the two characters.
type guardStyle struct {
	bracket, colon string
	lineStart      bool // escape a line that starts with "::"
	off            bool // write lines as they are
}

var (
	guardText   = guardStyle{bracket: `\x5b`, colon: `\x3a`, lineStart: true}
	guardJSON   = guardStyle{bracket: `\u005b`, colon: `\u003a`, lineStart: true}
	guardXML    = guardStyle{bracket: `&#91;`, colon: `&#58;`, lineStart: true}
	guardGitHub = guardStyle{off: true}
)

// guardFor is the guard style of an output format (-o).
func guardFor(format string) guardStyle {
	switch format {
	case "json", "sarif":
		return guardJSON
	case "junit":
		return guardXML
	case "github":
		return guardGitHub
	}
	return guardText
}

// A Guard is an io.Writer that writes each line to its writer once the line is complete
// (Flush writes the rest), rewritten so that no CI runner takes it for a command, as the
// command's output in the format given to NewGuard is: for a program that prints text from
// elsewhere (the kubectl plugin prints the API server's) beside the command's output.
type Guard struct {
	w     io.Writer
	style guardStyle
	line  []byte
	err   error
}

// NewGuard returns a Guard over w for output in format (-o): "json" and "sarif" escape as
// JSON does, "junit" as XML does, "github" writes lines as they are (workflow commands on
// purpose, their values escaped as the runner unescapes them), anything else as text.
func NewGuard(w io.Writer, format string) *Guard { return &Guard{w: w, style: guardFor(format)} }

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
	_, g.err = g.w.Write(guardLine(g.line, g.style))
	g.line = g.line[:0]
}

// guardLine returns line (one line, with or without its line break) rewritten so that no
// CI runner takes it for a command; line itself when nothing needs escaping.
func guardLine(line []byte, s guardStyle) []byte {
	if s.off {
		return line
	}
	colon := -1
	if s.lineStart {
		rest := bytes.TrimLeftFunc(line, unicode.IsSpace)
		if bytes.HasPrefix(rest, []byte("::")) {
			colon = len(line) - len(rest)
		}
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
