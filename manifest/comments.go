package manifest

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// IgnoreMarker begins the text of a suppression comment:
//
//	# instancetype:ignore R9
//	# instancetype:ignore R9, duplicate-key -- the GPU pool is being resized
//
// The rule ids follow it, separated by commas, spaces or both; text after " -- " is a
// reason, for people.
const IgnoreMarker = "instancetype:ignore"

// Scope is what a suppression comment applies to.
type Scope uint8

// The scopes of suppression comments.
const (
	// ScopeLine: a comment after content on its line suppresses the findings of that line.
	ScopeLine Scope = iota
	// ScopeNextLine: a comment alone on its line, below content of its document, suppresses
	// the findings of the next line that is not a comment line (a blank line is a line: a
	// comment above one suppresses nothing).
	ScopeNextLine
	// ScopeDocument: a comment alone on its line above all the content of its document (in
	// the comments it starts with, or on its "---" line) suppresses the findings of the
	// whole document. In a document of comments alone (the header of a file, before its
	// first "---"), it applies to the document after it.
	ScopeDocument
)

// A Suppression is a suppression comment of a file.
type Suppression struct {
	// Position is where the comment's "#" is.
	Position
	// Rules are the rule ids the comment names, as written, in order: none for a comment
	// that names none. They are not checked here (package lint knows the rules).
	Rules []string
	// Scope is what the comment applies to.
	Scope Scope
	// From and To are the first and last lines of the findings it suppresses.
	From, To int
}

// Suppressions returns the suppression comments of a file's contents, in file order: the
// comments, read as the YAML reader reads them, whose text begins with IgnoreMarker. A "#"
// inside a quoted or block scalar is content, not a comment; in a document the YAML reader
// cannot parse (a syntax error), or beyond the reader's limits, only comments alone on
// their line are read. JSON has no comments, and a Helm template (see Parse) none that
// apply: both have none.
//
// A file without the marker costs a search for it; only the documents that hold it are
// parsed. Parse and Scan read the same comments from the parse they make of each document
// anyway, and hand them over with it (Document.Suppressions, File.Suppressions): a caller
// that reads the file with them need not call Suppressions.
func Suppressions(data []byte) []Suppression {
	if len(data) > MaxFileSize {
		return nil
	}
	utf16 := bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe})
	if !utf16 && !bytes.Contains(data, []byte(IgnoreMarker)) {
		return nil
	}
	text, problem := decodeText(data)
	if problem != nil && problem.fatal || !bytes.Contains(text, []byte(IgnoreMarker)) || isJSON(text) {
		return nil
	}
	if _, ok := templateAction(text); ok {
		return nil
	}
	text, _ = dropLostLine(text, bytes.HasPrefix(data, utf8Mark))
	var out []Suppression
	at := cursor{data: text, line: 1}
	// Each document is read once the one after it is cut: comments of a document without
	// content apply to the next.
	var prev chunk
	for c := range yamlChunks(text, func(int, string) {}) {
		if prev.data != nil && bytes.Contains(prev.data, []byte(IgnoreMarker)) {
			next := c
			out = append(out, chunkSuppressions(prev, &next)...)
		}
		if c.line >= 2 {
			// The "---" line that ends the document before this one belongs to neither; a
			// comment there applies to this one, as one on the first line of a file does.
			if s, ok := separatorSuppression(at.lineAt(c.line-1), c.line-1, c); ok {
				out = append(out, s)
			}
		}
		prev = c
	}
	if prev.data != nil && bytes.Contains(prev.data, []byte(IgnoreMarker)) {
		out = append(out, chunkSuppressions(prev, nil)...)
	}
	return out
}

// chunkSuppressions returns the suppression comments of the document c; next is the
// document after it (nil for none), which comments of a document without content apply to.
func chunkSuppressions(c chunk, next *chunk) []Suppression {
	lines := splitLines(c.data)
	strs, parsed := stringSpans(c.data, lines)
	out, _ := suppressionsIn(c, lines, strs, parsed, next)
	return out
}

// suppressionsIn returns the suppression comments of the document c, cut into lines, whose
// quoted and block scalars are at strs (when parsed: else the document could not be parsed,
// and only comments alone on their line are read); and whether the document has content.
// The comments of a document without content apply to next, the document after it, or
// (next nil) to their own line.
func suppressionsIn(c chunk, lines textLines, strs []span, parsed bool, next *chunk) ([]Suppression, bool) {
	last := c.line + lines.count() - 1
	var out []Suppression
	var pendingNext []int // indexes in out of comments waiting for their next line
	content := false      // a line of content has been met
	for i, next := 0, 0; i < lines.count(); i++ {
		start := next
		l := lines.from(start)
		next = start + len(l) + 1
		first, hash := commentOf(l, start, strs, parsed)
		separator := i == 0 && isSeparatorLine(l)
		onlyComment := first < 0 || first == hash || separator && (hash < 0 || onlySpace(l[3:hash]))
		if !onlyComment || first < 0 && len(pendingNext) > 0 {
			// A line of content, or a blank line: where the comments above it apply.
			for _, j := range pendingNext {
				out[j].From, out[j].To = c.line+i, c.line+i
			}
			pendingNext = pendingNext[:0]
		}
		if first >= 0 && !onlyComment {
			content = true
		}
		if hash < 0 {
			continue
		}
		rules, ok := ignoreRules(l[hash+1:])
		if !ok {
			continue
		}
		s := Suppression{Position: c.position(i+1, utf8.RuneCount(l[:hash])+1), Rules: rules}
		switch {
		case !onlyComment:
			s.Scope, s.From, s.To = ScopeLine, s.Line, s.Line
		case !content:
			s.Scope, s.From, s.To = ScopeDocument, c.line, last
		default:
			s.Scope, s.From, s.To = ScopeNextLine, s.Line, s.Line // until its line comes
			pendingNext = append(pendingNext, len(out))
		}
		out = append(out, s)
	}
	if !content {
		// A document of comments alone: its comments apply to the document after it, or
		// to nothing (their own line).
		applyToNext(out, next)
	}
	return out, content
}

// applyToNext makes the comments of a document without content, out, apply to next, the
// document after it, or (next nil) to their own line.
func applyToNext(out []Suppression, next *chunk) {
	for j := range out {
		if next != nil {
			out[j].From, out[j].To = next.line, next.line+countLines(next.data)-1
		} else {
			out[j].From, out[j].To = out[j].Line, out[j].Line
		}
	}
}

// separatorSuppression returns the suppression comment on sep, the "---" line (line) that
// ends the document before c, if it holds one: it applies to c.
func separatorSuppression(sep []byte, line int, c chunk) (Suppression, bool) {
	if !bytes.Contains(sep, []byte(IgnoreMarker)) {
		return Suppression{}, false
	}
	_, hash := commentOf(sep, 0, nil, true)
	if hash <= 0 {
		return Suppression{}, false
	}
	rules, ok := ignoreRules(sep[hash+1:])
	if !ok {
		return Suppression{}, false
	}
	return Suppression{Position: Position{Line: line, Column: utf8.RuneCount(sep[:hash]) + 1},
		Rules: rules, Scope: ScopeDocument, From: c.line, To: c.line + countLines(c.data) - 1}, true
}

// ignoreRules reads the text after a comment's "#": the rule ids of a suppression comment,
// and whether it is one.
func ignoreRules(text []byte) ([]string, bool) {
	t := strings.TrimLeft(string(text), " \t")
	rest, ok := strings.CutPrefix(t, IgnoreMarker)
	if !ok || rest != "" && !strings.ContainsRune(" \t,", rune(rest[0])) {
		return nil, false
	}
	if i := strings.Index(rest, "--"); i >= 0 {
		rest = rest[:i]
	}
	return strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }), true
}

// textLines indexes the lines of a text (a final line feed ends the last line): where
// every lineStride-th line starts, so that the index of a text of millions of empty lines
// stays small; the start of any other line is found from the nearest one indexed.
type textLines struct {
	data  []byte
	every []int // the starts of lines 0, lineStride, 2*lineStride, ...
	n     int
}

const lineStride = 64

// splitLines indexes the lines of data.
func splitLines(data []byte) textLines {
	t := textLines{data: data, every: make([]int, 1, bytes.Count(data, []byte("\n"))/lineStride+1), n: 1}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 || off+i+1 == len(data) {
			return t
		}
		off += i + 1
		if t.n%lineStride == 0 {
			t.every = append(t.every, off)
		}
		t.n++
	}
}

// countLines is the number of lines of data, as splitLines counts them.
func countLines(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] == '\n' {
		n--
	}
	return n
}

func (t textLines) count() int { return t.n }

// start is the offset of line i (from 0).
func (t textLines) start(i int) int {
	off := t.every[i/lineStride]
	for k := i % lineStride; k > 0; k-- {
		off += bytes.IndexByte(t.data[off:], '\n') + 1
	}
	return off
}

// from is the line that starts at offset off, without its line feed.
func (t textLines) from(off int) []byte {
	if end := bytes.IndexByte(t.data[off:], '\n'); end >= 0 {
		return t.data[off : off+end]
	}
	return t.data[off:]
}

// cursor finds lines of a text by number, in increasing order, in one pass.
type cursor struct {
	data []byte
	off  int // where line starts
	line int
}

// lineAt returns line n (from 1), which is not before the last one asked for.
func (c *cursor) lineAt(n int) []byte {
	for c.line < n {
		i := bytes.IndexByte(c.data[c.off:], '\n')
		if i < 0 {
			return nil
		}
		c.off += i + 1
		c.line++
	}
	l := c.data[c.off:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return l
}

// isSeparatorLine reports a "---" line that begins a document (nothing after it but blanks
// and a comment).
func isSeparatorLine(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("---")) {
		return false
	}
	rest := bytes.TrimLeft(l[3:], " \t\r")
	return len(rest) == 0 || rest[0] == '#'
}

func onlySpace(b []byte) bool { return len(bytes.Trim(b, " \t\r")) == 0 }

// commentOf returns, for one line starting at offset start of its document, the index in
// it of its first character that is not blank (or -1) and of the "#" that begins its
// comment (or -1): a "#" at the start of the line, after a blank or right after a quoted
// scalar (as the YAML reader reads ""#x), outside the spans of quoted and block scalars. When the document could not be parsed, only a comment alone
// on its line is found.
func commentOf(l []byte, start int, strs []span, parsed bool) (first, hash int) {
	first, hash = -1, -1
	for i, c := range l {
		if c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		if first < 0 {
			first = i
		}
		if c != '#' || i > 0 && l[i-1] != ' ' && l[i-1] != '\t' && !endsQuoted(strs, start+i) || inSpans(strs, start+i) {
			continue
		}
		if !parsed && i != first {
			return first, -1
		}
		return first, i
	}
	return first, -1
}

// span is a range of bytes of a document, [from, to), that is a scalar's content.
type span struct {
	from, to int
	// token: the span is a token after which a comment may start without a blank (a
	// quoted scalar, quotes included; a block scalar's header, | or > and its indicators).
	token bool
}

// endsQuoted reports whether a token's span ends at off: a quoted scalar or a block
// scalar's header.
func endsQuoted(strs []span, off int) bool {
	i, _ := slices.BinarySearchFunc(strs, off, func(s span, off int) int { return s.from - off })
	return i > 0 && strs[i-1].token && strs[i-1].to == off // spans do not overlap
}

func inSpans(strs []span, off int) bool {
	i, found := slices.BinarySearchFunc(strs, off, func(s span, off int) int {
		switch {
		case off < s.from:
			return 1
		case off >= s.to:
			return -1
		}
		return 0
	})
	return found && i >= 0
}

// stringSpans returns the spans of data, a document cut into lines, that hold quoted
// scalars, and block scalars with a "#" in them (a "#" there is content), sorted; and
// whether the document could be parsed at all.
func stringSpans(data []byte, lines textLines) ([]span, bool) {
	if emptyDocument(data) {
		return nil, true // nothing to parse (and the YAML reader is slow at blank lines)
	}
	if nodeBound(data) > MaxNodes {
		return nil, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, false
	}
	return stringSpansOf(&doc, data, lines), true
}

// stringSpansOf is stringSpans of the document data, cut into lines, parsed: root is its
// document node or the node of its content, as the YAML reader made it.
func stringSpansOf(root *yaml.Node, data []byte, lines textLines) []span {
	var strs []span
	// offset is the offset in data of the character at a node's line and column.
	offset := func(line, col int) int {
		if line < 1 || line > lines.count() {
			return -1
		}
		start := lines.start(line - 1)
		l := lines.from(start)
		i := 0
		for ; col > 1 && i < len(l); col-- {
			_, size := utf8.DecodeRune(l[i:])
			i += size
		}
		return start + i
	}
	var walk func(n *yaml.Node, indent int)
	walk = func(n *yaml.Node, indent int) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, -1)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, n.Column-1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i], n.Content[i].Column-1)
				walk(n.Content[i+1], n.Content[i].Column-1)
			}
		case yaml.ScalarNode:
			quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
			block := n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
			if !quoted && !block {
				return // a plain scalar holds no "#" after a blank
			}
			at := offset(n.Line, n.Column)
			if at < 0 {
				return
			}
			if quoted {
				if s, ok := quotedSpan(data, at, n.Style&yaml.DoubleQuotedStyle != 0); ok {
					strs = append(strs, s)
				}
				return
			}
			header, content, ok := blockSpan(lines, n.Line, at, indent)
			if ok {
				strs = append(strs, header)
				if strings.Contains(n.Value, "#") && content.to > content.from {
					strs = append(strs, content)
				}
			}
		}
	}
	walk(root, -1)
	slices.SortFunc(strs, func(a, b span) int { return a.from - b.from })
	return strs
}

// quotedSpan returns the span of the quoted scalar whose node starts at data[at] (its tag
// or anchor, if it has one, then its opening quote).
func quotedSpan(data []byte, at int, double bool) (span, bool) {
	q := byte('\'')
	if double {
		q = '"'
	}
	open := bytes.IndexByte(data[at:], q)
	if open < 0 {
		return span{}, false
	}
	open += at
	for i := open + 1; i < len(data); i++ {
		switch {
		case double && data[i] == '\\':
			i++
		case !double && data[i] == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case data[i] == q:
			return span{open, i + 1, true}, true
		}
	}
	return span{open, len(data), true}, true
}

// blockSpan returns the spans of the header and of the content of the block scalar whose
// indicator (| or >) is at or after data[at], on line header (from 1); indent is the
// indentation of the collection it is in (-1 at the top). The content is the lines after
// the header that are blank or indented at least as its first line that is not blank, or
// as the indentation indicator says.
func blockSpan(lines textLines, header, at, indent int) (head, content span, ok bool) {
	h := lines.from(at)
	i := bytes.IndexAny(h, "|>")
	if i < 0 {
		return span{}, span{}, false
	}
	h = h[i:]
	n := -1
	j := 1
	for ; j < len(h) && (h[j] == '+' || h[j] == '-' || h[j] >= '0' && h[j] <= '9'); j++ {
		if h[j] >= '1' && h[j] <= '9' {
			n = max(indent, 0) + int(h[j]-'0')
		}
	}
	head = span{at + i, at + i + j, true}
	if header >= lines.count() {
		return head, span{}, true
	}
	from := lines.start(header)
	to := from
	for i, start := header, from; i < lines.count(); i++ {
		l := lines.from(start)
		lineStart := start
		start += len(l) + 1
		ind := len(l) - len(bytes.TrimLeft(l, " "))
		blank := onlySpace(l)
		if !blank && n < 0 {
			if ind <= indent {
				break
			}
			n = ind
		}
		if !blank && ind < n {
			break
		}
		to = lineStart + len(l)
	}
	return head, span{from, to, false}, true
}

// read reads the suppression comments of the document c, whose parse gave n (nil for a
// document without content, or one that cannot be parsed) and d (nil when it is read in no
// decoder), or failed: those
// that apply to it go to sup, with those of the "---" line before it and of a document of
// comments alone before it; those of a document of comments alone wait in pending for the
// next. The spans of its strings are taken from n, parsed once; a long list read in parts
// has no tree of the whole, and is parsed again for them.
func (cr *commentReader) read(c chunk, n *yaml.Node, d *decoder, failed bool) {
	applyToNext(cr.pending, &c)
	cr.sup = append(cr.sup, cr.pending...)
	cr.pending = cr.pending[:0]
	if c.line >= 2 {
		if s, ok := separatorSuppression(cr.lines.lineAt(c.line-1), c.line-1, c); ok {
			cr.sup = append(cr.sup, s)
		}
	}
	if !bytes.Contains(c.data, []byte(IgnoreMarker)) {
		return
	}
	lines := splitLines(c.data)
	var strs []span
	parsed := true
	switch {
	case n == nil:
		parsed = !failed // no content (no strings), or it cannot be parsed
	case d != nil && d.long != nil:
		strs, parsed = stringSpans(c.data, lines)
	default:
		strs = stringSpansOf(n, c.data, lines) // before decoding, which may change values
	}
	out, content := suppressionsIn(c, lines, strs, parsed, nil)
	if content {
		cr.sup = append(cr.sup, out...)
	} else {
		cr.pending = append(cr.pending, out...)
	}
}
