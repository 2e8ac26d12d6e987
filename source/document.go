package source

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

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
	// Refused: a document kubectl parses but refuses: a value it cannot send (.inf, .nan;
	// in JSON, a number beyond the range of a float), a key that is null, a list or a
	// mapping, an alias into the node that holds it, a merge of what is not a mapping, a
	// value its tag does not fit (!!int x).
	Refused
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
	// Position is where its content starts: its first line that is not blank, a comment
	// or a "---" line, or the first character of a JSON value (which may follow another
	// on its line).
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

	text  []byte   // as the reader cut it: YAML, or a JSON value
	start Position // where text starts: before the "---" lines it may begin with
	dups  bool     // the strict reading found a key set twice
	long  *long    // the items of a long list, read one run at a time

	itemsProblem *Problem // why Items stopped, for a list that is not long

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

// textAt is where the document's text starts: before the "---" lines it may begin with.
func (d *Document) textAt() Position {
	if d.start.Line > 0 {
		return d.start
	}
	return d.Position
}

// lineCount is the number of lines the document's text spans.
func (d *Document) lineCount() int {
	n := bytes.Count(d.text, []byte("\n"))
	if len(d.text) > 0 && d.text[len(d.text)-1] != '\n' {
		n++
	}
	return max(n, 1)
}

// explain says what a problem the YAML reader reports means for the user, and finds the
// line in the document where it is, which its message does not always name: where an
// unknown anchor is used, where a value kubectl cannot send or a key it cannot make a JSON
// key of is, or where yaml.v3 finds the problem; else 1.
func (d *Document) explain(msg string, kind ProblemKind) (int, string) {
	lineOf := func(i int) int { return 1 + bytes.Count(d.text[:i], []byte("\n")) }
	if name, ok := quotedAfter(msg, "unknown anchor '"); ok {
		short := clipText(name, 64)
		msg = "unknown anchor '" + short + "' referenced: an alias (*" + short + ") must come after its anchor (&" + short + ") in the same document"
		if i := bytes.Index(d.text, []byte("*"+name)); i >= 0 {
			return lineOf(i), msg
		}
		return 1, msg
	}
	if name, ok := quotedAfter(msg, "anchor '"); ok && strings.HasSuffix(msg, "value contains itself") {
		msg = "an alias (*" + clipText(name, 64) + ") inside the node its anchor (&" + clipText(name, 64) + ") names: it has no end, and kubectl refuses the document"
		if i := bytes.Index(d.text, []byte("*"+name)); i >= 0 {
			return lineOf(i), msg
		}
		return 1, msg
	}
	if strings.HasPrefix(msg, "control characters are not allowed") {
		for i, r := range string(d.text) {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				return lineOf(i), "control character " + fmt.Sprintf("%U", r) + " is not allowed: kubectl refuses the document"
			}
		}
	}
	if strings.Contains(msg, "excessive aliasing") {
		return 1, "kubectl refuses this document: its aliases expand too far (" + msg + ")"
	}
	t := d.parsed()
	switch {
	case msg == "map merge requires map or sequence of maps as the value":
		if n := badMerge(t.root, 0); n != nil {
			return n.Line, msg
		}
	case strings.HasPrefix(msg, "cannot decode "):
		// cannot decode !!str `x` as a !!int: a scalar whose tag does not fit it.
		if value, tag, ok := badTag(msg); ok {
			msg = strings.Replace(msg, value, clipText(value, 64), 1)
			if n := find(t.root, 0, func(n *yaml.Node, _ bool) bool {
				return n.Kind == yaml.ScalarNode && n.Tag == tag && n.Value == value
			}); n != nil {
				return n.Line, msg
			}
		}
	case msg == "!!binary value contains invalid base64 data":
		if n := find(t.root, 0, badBinary); n != nil {
			return n.Line, msg
		}
	case strings.HasPrefix(msg, "json: unsupported value"):
		msg = "kubectl cannot send this document, and refuses it: a value has no JSON form (" + strings.TrimPrefix(msg, "json: unsupported value: ") + ")"
		if n := find(t.root, 0, nonFinite); n != nil {
			msg = "kubectl cannot send this document, and refuses it: " + n.Value + " has no JSON form; write a finite number"
			return n.Line, msg
		}
	case strings.HasPrefix(msg, "unsupported map key") || strings.HasPrefix(msg, "invalid map key"):
		msg = "kubectl refuses this document: a key is null, a list or a mapping, which it cannot make a JSON key of; write a string"
		if n := find(t.root, 0, badKey); n != nil {
			return n.Line, msg
		}
	}
	if t.err != nil {
		return t.errLine, msg
	}
	return 1, msg
}

// parserProblems are the problems the YAML parser reports (go.yaml.in/yaml/v2 and v3,
// parserc.go), as against its scanner: the line a parser's message names counts from 0,
// a scanner's from 1 (their fail functions add one for a scanner's problem only).
var parserProblems = [...]string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
}

// readerLine is the line, counted from 1, of the problem msg that the YAML reader's
// message "line n: msg" places.
func readerLine(n int, msg string) int {
	for _, p := range parserProblems {
		if msg == p {
			return n + 1
		}
	}
	return n
}

// find returns the first node under n, in document order, that ok accepts.
func find(n *yaml.Node, depth int, ok func(n *yaml.Node, key bool) bool) *yaml.Node {
	if n == nil || depth > 1000 {
		return nil
	}
	for i, c := range n.Content {
		if ok(c, n.Kind == yaml.MappingNode && i%2 == 0) {
			return c
		}
		if f := find(c, depth+1, ok); f != nil {
			return f
		}
	}
	return nil
}

// badKey reports a mapping key kubectl cannot make a JSON key of.
func badKey(n *yaml.Node, key bool) bool {
	return key && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode || n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// badMerge returns the first merge key under n, in document order, whose value is not a
// mapping or a list of mappings, which the YAML reader refuses.
func badMerge(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > 1000 {
		return nil
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode && c.Tag == "!!merge" && i+1 < len(n.Content) && !mergeable(n.Content[i+1]) {
			return c
		}
		if f := badMerge(c, depth+1); f != nil {
			return f
		}
	}
	return nil
}

// mergeable reports a value a merge key may have: a mapping, or a list of mappings
// (aliases to them included).
func mergeable(v *yaml.Node) bool {
	v = deref(v)
	switch {
	case v == nil:
		return false
	case v.Kind == yaml.MappingNode:
		return true
	case v.Kind == yaml.SequenceNode:
		for _, e := range v.Content {
			if e = deref(e); e == nil || e.Kind != yaml.MappingNode {
				return false
			}
		}
		return true
	}
	return false
}

// badBinary reports a !!binary scalar that is not base64, which the YAML reader refuses.
func badBinary(n *yaml.Node, _ bool) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!binary" {
		return false
	}
	_, err := base64.StdEncoding.DecodeString(n.Value)
	return err != nil
}

// badTag returns the value and the tag of the YAML reader's message "cannot decode !!str
// `x` as a !!int".
func badTag(msg string) (value, tag string, ok bool) {
	i := strings.IndexByte(msg, '`')
	j := strings.LastIndexByte(msg, '`')
	if i < 0 || j <= i {
		return "", "", false
	}
	tag, ok = strings.CutPrefix(msg[j+1:], " as a ")
	return msg[i+1 : j], tag, ok
}

// nonFinite reports a scalar that YAML reads as an infinity or not a number.
func nonFinite(n *yaml.Node, _ bool) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!float" {
		return false
	}
	switch strings.ToLower(strings.TrimPrefix(n.Value, "+")) {
	case ".inf", "-.inf", ".nan":
		return true
	}
	return false
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
// indicator; an explicit key, "?", makes a key and a value, both null when empty), which
// bounds what converting it takes before it is converted. It counts all but the
// collection at the top of the text, which needs no indicator.
func nodeBound(text []byte) int {
	n := 0
	word := false
	for _, c := range text {
		switch c {
		case ' ', '\t', '\n', '\r':
			word = false
		case '?':
			n += 2
			word = false
		case ',', '[', ']', '{', '}', ':', '-', '*', '&', '!':
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

// quotedAfter returns the text of msg between prefix and the next "'".
func quotedAfter(msg, prefix string) (string, bool) {
	i := strings.Index(msg, prefix)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(prefix):]
	j := strings.IndexByte(rest, '\'')
	if j <= 0 {
		return "", false
	}
	return rest[:j], true
}

// numberProblem is the problem of the JSON document d, which holds the number num beyond
// the range of a 64-bit float, placed at the number.
func (d *Document) numberProblem(num string) *Problem {
	p := &Problem{Position: d.Position, Kind: Refused, Message: numberRefused(num)}
	if t := d.parsed(); t.root != nil {
		if n := find(t.root, 0, isNumber(num)); n != nil {
			p.Position = t.pos(n)
		}
	}
	return p
}

// numberRefused says why kubectl refuses a document that holds the number num.
func numberRefused(num string) string {
	if num == "" {
		return "kubectl refuses this document as it decodes it"
	}
	if len(num) > 40 {
		num = num[:20] + "…" + num[len(num)-10:]
	}
	return "kubectl refuses this document: the number " + num + " is beyond the range of a 64-bit float, to which its decoder converts every number; write a smaller one"
}

// isNumber finds the number num, as written.
func isNumber(num string) func(*yaml.Node, bool) bool {
	return func(n *yaml.Node, _ bool) bool {
		return n.Kind == yaml.ScalarNode && n.Value == num && n.Tag != "!!str"
	}
}

// maxMessage is the most bytes of a problem's message: a message that repeats the text of
// a file (a separator line, an anchor's name, a value the reader quotes) is cut, so that a
// megabyte of input cannot make a megabyte of output.
const maxMessage = 1024

// clipText returns s, or for text longer than max bytes its first max bytes (at a UTF-8
// boundary) followed by "... (N bytes)".
func clipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
