package source

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Position is a place in a file. Lines and columns count from 1; a column counts
// characters.
type Position struct {
	Line, Column int
}

// ProblemKind is the kind of a Problem.
type ProblemKind uint8

const (
	// Syntax: text kubectl does not read: a YAML or JSON syntax error, an alias to an
	// unknown anchor, an invalid document separator, a last line its line reader loses, an
	// encoding it does not read.
	Syntax ProblemKind = iota
	// Unsendable: a value kubectl reads but cannot send (.inf, .nan), for which it refuses
	// the document.
	Unsendable
	// Limit: input beyond one of the limits of this package (MaxFileSize, MaxDocument,
	// MaxNodes) or of the YAML reader's (nesting, aliases), which is not read.
	Limit
)

// Problem is why a file, or a document, is not read.
type Problem struct {
	// Position is where: the line the reader names, else the document's first line.
	Position
	Kind ProblemKind
	// Message says what is wrong, in the reader's words and, where they are terse, ours.
	Message string
}

// Document is one non-empty document of a file, with what kubectl reads of it.
type Document struct {
	// Index is the document's place among the non-empty documents of its file, from 0.
	Index int
	// Position is where its text starts: the first line after the "---" before it, or
	// the first character of a JSON value (which may follow another on its line).
	Position
	// JSON reports a document read by JSON rules: a value of a stream that starts with
	// "{".
	JSON bool
	// Value is what kubectl sends for the document, decoded by encoding/json with numbers
	// as written (json.Number): a map[string]any, []any, string, json.Number or bool. For
	// a long list (see Long), it is the mapping without its items. It is nil when Problem
	// is set.
	Value any
	// Problem, when set, is why kubectl refuses the document (or why it is past a limit):
	// nothing of it is read.
	Problem *Problem
	// Comments are the marked comments (Options.Marker) that apply to the document: its
	// own, those on the "---" line before it and those of the documents of comments alone
	// before it.
	Comments []Comment

	text []byte // as the reader cut it: YAML, or a JSON value
	dups bool   // the strict reading found a key set twice
	long *long  // the items of a long list, read one run at a time

	treeOnce sync.Once
	tree     *tree // of text, parsed by yaml.v3 on the first question of position
}

// Text returns the document's text, as kubectl's reader cut it: YAML with a line feed at
// the end of every line, or a JSON value.
func (d *Document) Text() []byte { return d.text }

// Long reports a long list whose items are read one run at a time (see Items): Value holds
// the rest of the mapping, without "items".
func (d *Document) Long() bool { return d.long != nil }

// HasDuplicates reports a mapping of the document with a key set twice: kubectl keeps
// the last value, and strict decoding refuses it. Duplicates says where.
func (d *Document) HasDuplicates() bool {
	if d.long != nil {
		return d.long.dups
	}
	return d.dups
}

// lineCount is the number of lines the document's text spans.
func (d *Document) lineCount() int {
	n := bytes.Count(d.text, []byte("\n"))
	if len(d.text) > 0 && d.text[len(d.text)-1] != '\n' {
		n++
	}
	return max(n, 1)
}

// problemLine is the line, in the document, of a problem the YAML reader reports without
// one: where an unknown anchor is used, where the value kubectl cannot send is (unsendable),
// or where yaml.v3 finds a problem; else 1.
func (d *Document) problemLine(msg string, unsendable bool) int {
	name, ok := quotedAfter(msg, "unknown anchor '")
	if !ok {
		name, ok = quotedAfter(msg, "anchor '")
	}
	if ok {
		if i := bytes.Index(d.text, []byte("*"+name)); i >= 0 {
			return 1 + bytes.Count(d.text[:i], []byte("\n"))
		}
	}
	t := d.parsed()
	if unsendable && t.root != nil {
		if n := nonFinite(t.root, 0); n != nil {
			return n.Line
		}
	}
	if t.err != nil {
		return t.errLine
	}
	return 1
}

// nonFinite returns the first scalar under n that YAML reads as an infinity or not a number.
func nonFinite(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > 1000 {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(strings.TrimPrefix(n.Value, "+")) {
		case ".inf", "-.inf", ".nan":
			if n.Tag == "!!float" {
				return n
			}
		}
		return nil
	}
	for _, c := range n.Content {
		if f := nonFinite(c, depth+1); f != nil {
			return f
		}
	}
	return nil
}

// quotedAfter returns the text of msg between prefix and the next "'".
func quotedAfter(msg, prefix string) (string, bool) {
	i := bytes.Index([]byte(msg), []byte(prefix))
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(prefix):]
	j := bytes.IndexByte([]byte(rest), '\'')
	if j <= 0 {
		return "", false
	}
	return rest[:j], true
}

// lineCursor walks the lines of a text forward, as the YAML reader consumes them, and
// tells the position of offsets in increasing order.
type lineCursor struct {
	text      []byte
	off       int // the cursor: a line's start, but where YAML follows JSON on its line
	line      int // the line of off, from 1
	lineStart int // where that line starts
	col       int // the characters from lineStart to colOff
	colOff    int
}

// moveTo moves the cursor forward to offset off.
func (c *lineCursor) moveTo(off int) {
	for {
		i := bytes.IndexByte(c.text[c.off:off], '\n')
		if i < 0 {
			break
		}
		c.off += i + 1
		c.line++
		c.lineStart = c.off
	}
	c.off = off
}

// position moves the cursor to offset off, which is not before it, and returns its
// position.
func (c *lineCursor) position(off int) Position {
	c.moveTo(off)
	if c.colOff < c.lineStart || c.colOff > off {
		c.col, c.colOff = 0, c.lineStart
	}
	c.col += utf8Count(c.text[c.colOff:off])
	c.colOff = off
	return Position{c.line, c.col + 1}
}

// here is the position of the cursor.
func (c *lineCursor) here() Position { return c.position(c.off) }

// advance moves n lines forward.
func (c *lineCursor) advance(n int) {
	for ; n > 0 && c.off < len(c.text); n-- {
		i := bytes.IndexByte(c.text[c.off:], '\n')
		if i < 0 {
			c.off = len(c.text)
			return
		}
		c.off += i + 1
		c.line++
		c.lineStart = c.off
	}
}

// isSeparator reports a line the YAML reader takes for the end of a document: one that
// starts with "---" (an invalid separator if anything but a comment follows).
func isSeparator(l []byte) bool { return bytes.HasPrefix(l, []byte("---")) }

// validSeparator reports a separator line with nothing but blanks and a comment after it.
func validSeparator(l []byte) bool {
	rest := bytes.TrimSpace(l[3:])
	return len(rest) == 0 || rest[0] == '#'
}

// current returns the line at the cursor, without its line break.
func (c *lineCursor) current() []byte {
	l := c.text[c.off:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return l
}

// skipSeparators moves past the separator lines at the cursor, and returns the position
// after them: where the next document starts. Comments on them go to s (when not nil)
// as comments of that document.
func (c *lineCursor) skipSeparators(s *scanner) Position {
	for c.off < len(c.text) {
		l := c.current()
		if !isSeparator(l) || !validSeparator(l) {
			break
		}
		if s != nil && s.opts.Marker != "" && bytes.Contains(l, []byte(s.opts.Marker)) {
			if cm, ok := separatorComment(l, c.line, s.opts.Marker); ok {
				s.pending = append(s.pending, cm)
			}
		}
		c.advance(1)
	}
	return c.here()
}

// badSeparator moves past the invalid separator the reader stopped at, and the lines
// before it, and returns its line.
func (c *lineCursor) badSeparator() int {
	for c.off < len(c.text) {
		l := c.current()
		line := c.line
		c.advance(1)
		if isSeparator(l) && !validSeparator(l) {
			return line
		}
	}
	return c.line
}

// lineText returns line n (from 1) of the text, which is not after the cursor's.
func (c *lineCursor) lineText(n int) []byte {
	lc := lineCursor{text: c.text, line: 1}
	lc.advance(n - 1)
	return lc.current()
}

// remaining is the number of bytes after the cursor.
func (c *lineCursor) remaining() int { return len(c.text) - c.off }

// utf8Count counts the characters of b.
func utf8Count(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xc0 != 0x80 {
			n++
		}
	}
	return n
}

// nodeBound is an estimate, without parsing, of the most nodes the YAML (or JSON) text can
// make: the words and flow indicators it holds (a node is a word, or begins at an
// indicator), which bounds what converting it takes before it is converted.
func nodeBound(text []byte) int {
	n := 0
	word := false
	for _, c := range text {
		switch c {
		case ' ', '\t', '\n', '\r':
			word = false
		case ',', '[', ']', '{', '}', ':', '-', '?', '*', '&', '!':
			n++
			word = false
		default:
			if !word {
				n++
				word = true
			}
		}
	}
	return n
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }
