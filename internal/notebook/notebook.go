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
}

// FileLine returns the line of the .ipynb file for line n (1-based) of the
// cell's source, or 0 when the cell has no such line.
func (c *Cell) FileLine(n int) int {
	if n < 1 || n > len(c.Lines) {
		return 0
	}
	return c.Lines[n-1]
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
	for ; r.counted < off; r.counted++ {
		if r.data[r.counted] == '\n' {
			r.line++
		}
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
	add := func() error {
		line := r.lineAt(r.next())
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
	// starts where the string holding its first character starts.
	atLineStart := true
	for i, s := range parts {
		for _, ch := range []byte(s) {
			if atLineStart {
				c.Lines = append(c.Lines, starts[i])
				atLineStart = false
			}
			if ch == '\n' {
				atLineStart = true
			}
		}
		b.WriteString(s)
	}
	if atLineStart && len(starts) > 0 {
		// the empty last line after a final "\n", or an empty source
		c.Lines = append(c.Lines, starts[len(starts)-1])
	}
	c.Source = b.String()
	return nil
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
