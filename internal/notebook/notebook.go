// Package notebook reads Jupyter notebooks (.ipynb, nbformat 4) with the
// position of every line of every cell's source in the file.
//
// A cell's source is a JSON string or, as Jupyter writes it, an array of
// strings, each usually one line ending in "\n". Each line of the joined source
// is mapped to the line of the .ipynb file where the JSON string holding it
// starts, so that a finding in a cell can be reported where the diff shows
// it. A string holding several lines maps all of them to its own line.
// Notebooks of nbformat 3 and earlier (worksheets) are refused.
package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Notebook is a parsed notebook.
type Notebook struct {
	// Language is the kernel's language (metadata.kernelspec.language, else
	// metadata.language_info.name), "" when the notebook does not say.
	Language string
	Cells    []Cell
}

// Cell is one cell of a notebook.
type Cell struct {
	Number int    // 1-based among all cells, as the cell field of the command's JSON
	Type   string // cell_type: "code", "markdown" or "raw"
	Source string // the cell's source, joined
	// Lines holds, for each line of Source (split at "\n"), the 1-based line
	// of the .ipynb file where the string holding it starts.
	Lines []int

	data []byte
	// raw holds, for each line of Source, where its text is written in data:
	// from the first byte of its escaped text in the JSON string that starts
	// it to the end of that string's text, and the characters of the file's
	// line before it.
	raw []span
}

// span is a range of bytes of a notebook's data, with the characters of the
// data's line before its start.
type span struct{ start, end, prefix int }

// FileLine returns the line of the .ipynb file for line n (1-based) of the
// cell's source, or 0 when the cell has no such line.
func (c *Cell) FileLine(n int) int {
	if n < 1 || n > len(c.Lines) {
		return 0
	}
	return c.Lines[n-1]
}

// FileColumn returns the 1-based column, in characters, of the .ipynb file's
// line FileLine(n) where the byte at the 1-based byte column col of the cell's
// line n is written, inside its escaped JSON string (a \" counts two
// characters, a \u00e9 six). It returns 0 when there is no such byte on that
// line: the cell has no line n, or col is past the text of the string that
// starts the line (a line a later string continues). It takes time in
// proportion to col; Columns maps many columns of a line in one pass.
func (c *Cell) FileColumn(n, col int) int {
	return c.Columns(n).At(col)
}

// Columns returns a Columns for the cell's line n (1-based).
func (c *Cell) Columns(n int) *Columns {
	k := &Columns{data: c.data}
	if n >= 1 && n <= len(c.raw) {
		k.sp, k.ok = c.raw[n-1], true
		k.rewind()
	}
	return k
}

// Columns maps the byte columns of one line of a cell to the columns of the
// .ipynb file's line, as FileColumn does, walking the line's escaped text
// once for columns asked in increasing order.
type Columns struct {
	data []byte
	sp   span
	ok   bool
	// at, decoded and chars: where the walk is in data, the bytes of the
	// line's text before it, and the characters of the file line before it.
	at, decoded, chars int
}

func (k *Columns) rewind() { k.at, k.decoded, k.chars = k.sp.start, 0, k.sp.prefix }

// At returns FileColumn's column for the byte column col of the line.
func (k *Columns) At(col int) int {
	if !k.ok || col < 1 {
		return 0
	}
	if col-1 < k.decoded {
		k.rewind()
	}
	for k.at < k.sp.end && k.decoded < col-1 {
		raw, decoded := escapedChar(k.data[k.at:k.sp.end])
		k.chars += rawChars(k.data[k.at], raw)
		k.at += raw
		k.decoded += decoded
	}
	if k.decoded != col-1 || k.at >= k.sp.end {
		return 0
	}
	return k.chars + 1
}

// rawChars is how many characters of the file the escaped character that
// starts with b and takes raw bytes is: an escape is ASCII, anything else one
// character (an invalid byte too, as utf8.RuneCount counts it).
func rawChars(b byte, raw int) int {
	if b == '\\' {
		return raw
	}
	return 1
}

// escapedChar returns how many bytes of text, the inside of a JSON string, its
// first character takes, and how many bytes encoding/json decodes it to: an
// escape (a surrogate pair of \u escapes is one character; a lone surrogate
// decodes to U+FFFD), or a UTF-8 character (an invalid byte decodes to U+FFFD).
func escapedChar(text []byte) (raw, decoded int) {
	if text[0] != '\\' {
		r, size := utf8.DecodeRune(text)
		if r == utf8.RuneError && size <= 1 {
			return 1, utf8.RuneLen(utf8.RuneError)
		}
		return size, size
	}
	if len(text) < 2 {
		return 1, 1
	}
	if text[1] != 'u' || len(text) < 6 {
		return 2, 1
	}
	u := hex4(text[2:6])
	if utf16.IsSurrogate(u) {
		if len(text) >= 12 && text[6] == '\\' && text[7] == 'u' {
			if r := utf16.DecodeRune(u, hex4(text[8:12])); r != utf8.RuneError {
				return 12, utf8.RuneLen(r)
			}
		}
		return 6, utf8.RuneLen(utf8.RuneError)
	}
	return 6, utf8.RuneLen(u)
}

// hex4 is the rune four hexadecimal digits spell, or U+FFFD.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError
		}
	}
	return r
}

// ErrNotNotebook is wrapped by the errors of Parse for input that is JSON but
// not a notebook of nbformat 4.
var ErrNotNotebook = errors.New("not a notebook of nbformat 4")

// Parse reads a notebook. On failure it returns nil and an error: a JSON
// syntax error, or one wrapping ErrNotNotebook.
func Parse(data []byte) (*Notebook, error) {
	r := &reader{data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1}
	nb := &Notebook{}
	if err := r.expectDelim('{'); err != nil {
		return nil, err
	}
	sawCells := false
	for r.dec.More() {
		key, err := r.key()
		if err != nil {
			return nil, err
		}
		switch key {
		case "cells":
			sawCells = true
			if nb.Cells, err = r.cells(); err != nil {
				return nil, err
			}
		case "metadata":
			var md struct {
				Kernelspec struct {
					Language string `json:"language"`
				} `json:"kernelspec"`
				LanguageInfo struct {
					Name string `json:"name"`
				} `json:"language_info"`
			}
			if err := r.dec.Decode(&md); err != nil {
				return nil, fmt.Errorf("%w: metadata: %v", ErrNotNotebook, err)
			}
			nb.Language = md.Kernelspec.Language
			if nb.Language == "" {
				nb.Language = md.LanguageInfo.Name
			}
		default:
			if err := r.skip(); err != nil {
				return nil, err
			}
		}
	}
	if err := r.expectDelim('}'); err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("notebook: data after the notebook's object")
	}
	if !sawCells {
		return nil, fmt.Errorf("%w: no cells", ErrNotNotebook)
	}
	return nb, nil
}

// reader walks the JSON with encoding/json's Decoder and finds where each
// token starts from the decoder's offset after the previous one.
type reader struct {
	data    []byte
	dec     *json.Decoder
	counted int // data[:counted] has been scanned for newlines
	line    int // the line at counted
	chars   int // the characters of its line before counted
}

// next returns the offset where the next token starts: after the previous
// token, past whitespace and the ',' or ':' the decoder consumes silently.
func (r *reader) next() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) {
		switch r.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// lineAt returns the 1-based line of offset off; offsets only grow.
func (r *reader) lineAt(off int) int {
	if off > len(r.data) {
		off = len(r.data)
	}
	for r.counted < off {
		if r.data[r.counted] == '\n' {
			r.line++
			r.chars = 0
			r.counted++
			continue
		}
		_, size := utf8.DecodeRune(r.data[r.counted:])
		r.counted += size
		r.chars++
	}
	return r.line
}

func (r *reader) expectDelim(d json.Delim) error {
	t, err := r.dec.Token()
	if err != nil {
		return err
	}
	if t != d {
		return fmt.Errorf("%w: %v where %v was expected", ErrNotNotebook, t, d)
	}
	return nil
}

func (r *reader) key() (string, error) {
	t, err := r.dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("%w: %v where a key was expected", ErrNotNotebook, t)
	}
	return k, nil
}

func (r *reader) skip() error {
	var v json.RawMessage
	return r.dec.Decode(&v)
}

func (r *reader) cells() ([]Cell, error) {
	if err := r.expectDelim('['); err != nil {
		return nil, fmt.Errorf("cells: %w", err)
	}
	var cells []Cell
	for r.dec.More() {
		c := Cell{Number: len(cells) + 1}
		if err := r.expectDelim('{'); err != nil {
			return nil, fmt.Errorf("cells[%d]: %w", len(cells), err)
		}
		sawSource := false
		for r.dec.More() {
			key, err := r.key()
			if err != nil {
				return nil, err
			}
			switch key {
			case "cell_type":
				if err := r.dec.Decode(&c.Type); err != nil {
					return nil, fmt.Errorf("%w: cells[%d].cell_type: %v", ErrNotNotebook, len(cells), err)
				}
			case "source":
				sawSource = true
				if err := r.source(&c); err != nil {
					return nil, fmt.Errorf("cells[%d].source: %w", len(cells), err)
				}
			default:
				if err := r.skip(); err != nil {
					return nil, err
				}
			}
		}
		if err := r.expectDelim('}'); err != nil {
			return nil, err
		}
		if !sawSource {
			return nil, fmt.Errorf("%w: cells[%d] has no source", ErrNotNotebook, len(cells))
		}
		cells = append(cells, c)
	}
	if err := r.expectDelim(']'); err != nil {
		return nil, err
	}
	return cells, nil
}

// source reads a cell's source, a string or an array of strings, and maps
// each of its lines to the line where its string starts.
func (r *reader) source(c *Cell) error {
	var b strings.Builder
	var starts []int // for each string, its line
	var parts []string
	var texts []span // for each string, its escaped text
	add := func() error {
		off := r.next()
		line := r.lineAt(off)
		prefix := r.chars + 1 // the opening quote
		t, err := r.dec.Token()
		if err != nil {
			return err
		}
		s, ok := t.(string)
		if !ok {
			return fmt.Errorf("%w: %v where a string was expected", ErrNotNotebook, t)
		}
		starts = append(starts, line)
		parts = append(parts, s)
		// The token is the string from its opening quote to its closing one.
		texts = append(texts, span{off + 1, max(off+1, int(r.dec.InputOffset())-1), prefix})
		return nil
	}
	off := r.next()
	if off >= len(r.data) {
		return io.ErrUnexpectedEOF
	}
	if r.data[off] == '[' {
		if err := r.expectDelim('['); err != nil {
			return err
		}
		for r.dec.More() {
			if err := add(); err != nil {
				return err
			}
		}
		if err := r.expectDelim(']'); err != nil {
			return err
		}
	} else if err := add(); err != nil {
		return err
	}
	// Each string continues the line the previous one left open: a line
	// starts where the string holding its first character starts. The escaped
	// text is walked (a "\n" in a JSON string is always an escape), and each
	// line's text found where it is written.
	c.data = r.data
	atLineStart := true
	var at span // where the walk is: its offset and the characters before it
	for i, t := range texts {
		at = t
		for at.start < t.end {
			if atLineStart {
				c.Lines = append(c.Lines, starts[i])
				c.raw = append(c.raw, at)
				atLineStart = false
			}
			raw, _ := escapedChar(r.data[at.start:t.end])
			atLineStart = isNewline(r.data[at.start : at.start+raw])
			at.prefix += rawChars(r.data[at.start], raw)
			at.start += raw
		}
		b.WriteString(parts[i])
	}
	if atLineStart && len(starts) > 0 {
		// the empty last line after a final "\n", or an empty source
		c.Lines = append(c.Lines, starts[len(starts)-1])
		c.raw = append(c.raw, at)
	}
	c.Source = b.String()
	return nil
}

// isNewline reports whether the escaped character esc decodes to "\n".
func isNewline(esc []byte) bool {
	return len(esc) == 2 && esc[0] == '\\' && esc[1] == 'n' || len(esc) == 6 && esc[0] == '\\' && hex4(esc[2:6]) == '\n'
}

// Python returns the source of a code cell as Python, as IPython's input transformers
// turn it into Python before running it, line for line so that line numbers hold: a line
// magic or shell escape (a line whose first non-blank character is % or !) becomes pass
// at its indentation (IPython's call of it is a statement there too), an assignment of
// one (files = !ls, x = %env HOME) assigns get_ipython() (a value not literal), and the
// lines a backslash continues it onto become blank. It returns false for a cell that is
// not code and for a cell run by a cell magic (its first line starts with %%), which is
// not Python.
func (c *Cell) Python() (string, bool) {
	if c.Type != "code" || strings.HasPrefix(strings.TrimLeft(c.Source, " \t\n"), "%%") {
		return "", false
	}
	lines := strings.Split(c.Source, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " \t")
		indent := l[:len(l)-len(t)]
		switch {
		case strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!"):
			lines[i] = indent + "pass"
		default:
			lhs, ok := escapeAssigned(t)
			if !ok {
				continue
			}
			lines[i] = indent + lhs + " = get_ipython()"
		}
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = lines[i]
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n"), true
}

// escapeAssigned returns the targets of a line that assigns a shell escape or a line
// magic (files = !ls, a, b = %sx cmd): names, attributes and commas before a single =.
func escapeAssigned(line string) (string, bool) {
	eq := strings.IndexByte(line, '=')
	if eq <= 0 {
		return "", false
	}
	rest := strings.TrimLeft(line[eq+1:], " \t")
	if !strings.HasPrefix(rest, "!") && !strings.HasPrefix(rest, "%") {
		return "", false
	}
	lhs := strings.TrimRight(line[:eq], " \t")
	name := false // the last character read ends a name
	for i := 0; i < len(lhs); i++ {
		switch b := lhs[i]; {
		case b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80:
			name = true
		case b >= '0' && b <= '9':
			if !name {
				return "", false
			}
		case b == '.' || b == ',':
			if !name {
				return "", false
			}
			name = false
		case b == ' ' || b == '\t':
		default:
			return "", false
		}
	}
	return lhs, name || strings.HasSuffix(lhs, ",") && len(lhs) > 1
}
