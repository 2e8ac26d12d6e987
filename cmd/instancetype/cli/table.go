package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// tableWidth is the width, in characters, that a table of text output fits: that of a
// terminal or a CI log pane, whatever the cells hold.
const tableWidth = 120

// A table is a header and rows of cells, printed in columns two spaces apart that fit
// tableWidth: when the cells' natural widths do not, the widest columns are narrowed, and a
// cell wider than its column is wrapped at its breaks (after the commas of k=v,k=v lists,
// before a compute's "(type unknown)", after a path's slashes) onto more lines of its row;
// a part still too wide is cut every so many characters. Nothing is left out. Cells are
// escaped text (Escape), one line each.
type table struct {
	header []string
	rows   [][]string
	// last marks the columns of paths (FILE:LINE), which read best on one line: narrowed
	// last, once the others are down to their longest parts, and wrapped after slashes too.
	last []bool
	// notes, when not "", are printed under their rows, indented by noteIndent and wrapped
	// (after commas and spaces) to fit tableWidth: what is too long for a column.
	notes []string
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// breaks are the breaks of the cells of column i.
func (t table) breaks(i int) breaks {
	if i < len(t.last) && t.last[i] {
		return pathBreaks
	}
	return cellBreaks
}

// noteIndent is the indent of a row's note.
const noteIndent = "    "

// comfortable is the width a column is first narrowed to at most.
const comfortable = 24

// minColumn is the narrowest a column whose parts are cut is made before others are
// narrowed to their headers.
const minColumn = 12

func width(s string) int { return utf8.RuneCountInString(s) }

// widths returns the width of each column: its widest cell, narrowed as needed for the
// table to fit tableWidth. Columns are narrowed widest first: those not marked last down
// to comfortable or their longest part that cannot be wrapped, then those marked last too,
// then all down to their longest parts (no part is cut so far), then down to minColumn (the
// longest parts are cut), then down to their headers.
func (t table) widths() []int {
	n := len(t.header)
	w, piece, head := make([]int, n), make([]int, n), make([]int, n)
	for i, h := range t.header {
		w[i], piece[i], head[i] = width(h), width(h), width(h)
	}
	for _, row := range t.rows {
		for i, c := range row {
			w[i] = max(w[i], width(c))
			for _, p := range parts(c, t.breaks(i)) {
				piece[i] = max(piece[i], width(strings.TrimRight(p, " ")))
			}
		}
	}
	total := 2 * (n - 1)
	for _, x := range w {
		total += x
	}
	last := func(i int) bool { return i < len(t.last) && t.last[i] }
	for _, floor := range []func(i int) int{
		func(i int) int {
			if last(i) {
				return w[i]
			}
			return max(piece[i], comfortable)
		},
		func(i int) int { return max(piece[i], comfortable) },
		func(i int) int { return piece[i] },
		func(i int) int { return max(head[i], minColumn) },
		func(i int) int { return head[i] },
	} {
		for total > tableWidth {
			widest := -1
			for i := range w {
				if w[i] > floor(i) && (widest < 0 || w[i] > w[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			w[widest]--
			total--
		}
	}
	return w
}

// breaks are the places where a text may be wrapped.
type breaks uint8

const (
	cellBreaks breaks = iota // after a comma, before " (", and after a hyphen inside a word: k=v,k=v lists, "arc (type unknown)", names
	pathBreaks               // those, and after a slash: FILE:LINE
	noteBreaks               // after a comma or a space: a row's note
)

// parts cuts s at its breaks, each part keeping what ends it.
func parts(s string, at breaks) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ',', c == '/' && at == pathBreaks, c == ' ' && (at == noteBreaks || strings.HasPrefix(s[i+1:], "(")),
			c == '-' && at != noteBreaks && i > 0 && isAlnum(s[i-1]) && i+1 < len(s) && isAlnum(s[i+1]):
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// write prints the table to out.
func (t table) write(out io.Writer) error {
	w := t.widths()
	var b, l strings.Builder
	line := func(cells [][]string, at int) {
		l.Reset()
		for i, c := range cells {
			text := ""
			if at < len(c) {
				text = c[at]
			}
			l.WriteString(text)
			if i < len(cells)-1 {
				l.WriteString(strings.Repeat(" ", max(w[i]-width(text), 0)+2))
			}
		}
		// No trailing blanks: the last cells of a wrapped row may be empty.
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	for r, row := range append([][]string{t.header}, t.rows...) {
		cells := make([][]string, len(row))
		height := 1
		for i, c := range row {
			cells[i] = wrap(c, w[i], t.breaks(i))
			height = max(height, len(cells[i]))
		}
		for at := range height {
			line(cells, at)
		}
		if r > 0 && r-1 < len(t.notes) && strings.TrimSpace(t.notes[r-1]) != "" {
			for _, l := range wrap(strings.TrimSpace(t.notes[r-1]), tableWidth-len(noteIndent), noteBreaks) {
				b.WriteString(strings.TrimRight(noteIndent+l, " ") + "\n")
			}
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// wrap cuts s into lines of at most n characters (n at least 1), at its breaks where it
// can; a part longer than n is cut every n characters. Nothing is left out: the lines
// joined are s, but for the blanks that ended lines.
func wrap(s string, n int, at breaks) []string {
	n = max(n, 1)
	if width(s) <= n {
		return []string{s}
	}
	var lines []string
	cur := ""
	for _, part := range parts(s, at) {
		if cur != "" && width(cur)+width(strings.TrimRight(part, " ")) > n {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur = ""
		}
		cur += part
		for r := []rune(strings.TrimRight(cur, " ")); len(r) > n; r = r[n:] {
			lines = append(lines, string(r[:n]))
			cur = string([]rune(cur)[n:])
		}
	}
	if cur = strings.TrimRight(cur, " "); cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
