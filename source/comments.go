package source

import (
	"bytes"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Scope is what a marked comment applies to.
type Scope uint8

// The scopes of marked comments.
const (
	// ScopeLine: a comment after content on its line applies to that line.
	ScopeLine Scope = iota
	// ScopeNextLine: a comment alone on its line, below content of its document, applies
	// to the next line that is not a comment line (a blank line is a line: a comment above
	// one applies to nothing).
	ScopeNextLine
	// ScopeDocument: a comment alone on its line above all the content of its document
	// (in the comments it starts with, or on its "---" line) applies to the whole
	// document. In a document of comments alone, which kubectl skips, it applies to the
	// document after it.
	ScopeDocument
)

// Comment is a comment whose text begins with a marker (Options.Marker):
//
//	# instancetype:ignore R9
//
// A "#" is a comment where the YAML reader takes it for one: at the start of a line, or
// after a blank, and not inside a quoted or block scalar (yaml.v3 tells where those are). In
// a document yaml.v3 cannot parse, and in a long list, only comments alone on their line
// are read. JSON has none.
type Comment struct {
	// Position is where its "#" is.
	Position
	// Text is what follows the marker, up to the end of the line.
	Text  string
	Scope Scope
	// From and To are the first and last lines it applies to.
	From, To int
}

// markerText returns the text of a comment after its "#" when it begins with marker
// (followed by a blank, a comma or nothing), and what follows the marker.
func markerText(after []byte, marker string) (string, bool) {
	t := strings.TrimLeft(string(after), " \t")
	rest, ok := strings.CutPrefix(t, marker)
	if !ok || rest != "" && !strings.ContainsRune(" \t,\r", rune(rest[0])) {
		return "", false
	}
	return strings.TrimRight(rest, "\r"), true
}

// separatorComment returns the marked comment on a "---" line (line), if it holds one: it
// applies to the document after it.
func separatorComment(l []byte, line int, marker string) (Comment, bool) {
	i := commentAfterSeparator(l)
	if i < 0 {
		return Comment{}, false
	}
	if text, ok := markerText(l[i+1:], marker); ok {
		return Comment{Position: Position{line, utf8Count(l[:i]) + 1}, Text: text, Scope: ScopeDocument}, true
	}
	return Comment{}, false
}

// commentAfterSeparator is the index of the "#" of the comment on a "---" line, or -1.
func commentAfterSeparator(l []byte) int {
	for i := 3; i < len(l); i++ {
		if l[i] == '#' && (l[i-1] == ' ' || l[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// comments returns the marked comments of the document. Those of a document kubectl skips
// (alone: comments alone, or null) all apply to the document after it: their From and
// To are set when it comes.
func (d *Document) comments(marker string, alone bool) []Comment {
	if d.JSON {
		return nil
	}
	text := d.text
	var strs []span
	parsed := false
	if !alone && d.long == nil {
		if t := d.parsed(); t.root != nil {
			strs, parsed = stringSpans(t.root, text), true
		}
	}
	at := d.textAt()
	last := at.Line + d.lineCount() - 1
	var out []Comment
	var waiting []int // the comments waiting for their next line
	content := false
	for i, off := 0, 0; off < len(text); i++ {
		nl := bytes.IndexByte(text[off:], '\n')
		if nl < 0 {
			nl = len(text) - off
		}
		l, start := text[off:off+nl], off
		off += nl + 1
		line := at.Line + i
		first, hash := commentOf(l, start, strs, parsed)
		alone := first < 0 || first == hash
		separator := !content && isSeparator(l)
		if separator {
			// A "---" line the document begins with: a comment there is of the document.
			first, hash, alone = -1, commentAfterSeparator(l), true
		}
		if !alone || first < 0 && len(waiting) > 0 {
			for _, j := range waiting {
				out[j].From, out[j].To = line, line
			}
			waiting = waiting[:0]
		}
		if !alone {
			content = true
		}
		if hash < 0 || !bytes.Contains(l[hash:], []byte(marker)) {
			continue
		}
		t, ok := markerText(l[hash+1:], marker)
		if !ok {
			continue
		}
		c := Comment{Position: Position{line, utf8Count(l[:hash]) + 1}, Text: t}
		if i == 0 {
			c.Column += at.Column - 1
		}
		switch {
		case !alone:
			c.Scope, c.From, c.To = ScopeLine, line, line
		case !content:
			c.Scope, c.From, c.To = ScopeDocument, d.Line, last
		default:
			c.Scope, c.From, c.To = ScopeNextLine, line, line
			waiting = append(waiting, len(out))
		}
		out = append(out, c)
	}
	if alone {
		for i := range out {
			out[i].Scope, out[i].From, out[i].To = ScopeDocument, out[i].Line, out[i].Line
		}
	}
	return out
}

// commentOf returns, for one line that starts at offset start of its document, the index
// in it of its first character that is not blank (or -1) and of the "#" that begins its
// comment (or -1): a "#" at the start of the line, after a blank, or right after a quoted
// scalar (as the YAML reader reads ""#x), outside the spans of quoted and block scalars.
// When the document could not be parsed, only a comment alone on its line is found.
func commentOf(l []byte, start int, strs []span, parsed bool) (first, hash int) {
	first, hash = -1, -1
	for i, c := range l {
		if c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		if first < 0 {
			first = i
		}
		if c != '#' || i > 0 && l[i-1] != ' ' && l[i-1] != '\t' && !endsToken(strs, start+i) || inSpans(strs, start+i) {
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
	// token: a comment may start right after the span (a quoted scalar, quotes included;
	// a block scalar's header, | or > and its indicators).
	token bool
}

// endsToken reports whether a token's span ends at off.
func endsToken(strs []span, off int) bool {
	i, _ := slices.BinarySearchFunc(strs, off, func(s span, off int) int { return s.from - off })
	return i > 0 && strs[i-1].token && strs[i-1].to == off
}

// inSpans reports whether off is inside one of the spans.
func inSpans(strs []span, off int) bool {
	_, found := slices.BinarySearchFunc(strs, off, func(s span, off int) int {
		switch {
		case off < s.from:
			return 1
		case off >= s.to:
			return -1
		}
		return 0
	})
	return found
}

// stringSpans returns the spans of text, parsed as root, that hold quoted scalars, and
// block scalars (whose content may hold a "#"), sorted.
func stringSpans(root *yaml.Node, text []byte) []span {
	var starts []int // of lines
	starts = append(starts, 0)
	for i, c := range text {
		if c == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	offset := func(line, col int) int {
		if line < 1 || line > len(starts) {
			return -1
		}
		i := starts[line-1]
		for ; col > 1 && i < len(text) && text[i] != '\n'; col-- {
			i++
			for i < len(text) && text[i]&0xc0 == 0x80 {
				i++
			}
		}
		return i
	}
	var strs []span
	var walk func(n *yaml.Node, indent int)
	walk = func(n *yaml.Node, indent int) {
		switch n.Kind {
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
			at := offset(n.Line, n.Column)
			if at < 0 || !quoted && !block {
				return // a plain scalar holds no "#" after a blank
			}
			if quoted {
				strs = append(strs, quotedSpan(text, at, n.Style&yaml.DoubleQuotedStyle != 0))
				return
			}
			head, content := blockSpan(text, starts, n.Line, at, indent)
			strs = append(strs, head, content)
		}
	}
	walk(root, -1)
	slices.SortFunc(strs, func(a, b span) int { return a.from - b.from })
	return strs
}

// quotedSpan returns the span of the quoted scalar whose node starts at text[at] (its tag
// or anchor, if it has one, then its opening quote).
func quotedSpan(text []byte, at int, double bool) span {
	q := byte('\'')
	if double {
		q = '"'
	}
	open := bytes.IndexByte(text[at:], q)
	if open < 0 {
		return span{at, at, true}
	}
	open += at
	for i := open + 1; i < len(text); i++ {
		switch {
		case double && text[i] == '\\':
			i++
		case !double && text[i] == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++
		case text[i] == q:
			return span{open, i + 1, true}
		}
	}
	return span{open, len(text), true}
}

// blockSpan returns the spans of the header and of the content of the block scalar whose
// indicator (| or >) is at or after text[at], on line header (from 1); indent is the
// indentation of the collection it is in (-1 at the top). The content is the lines after
// the header that are blank or indented at least as its first line that is not blank, or
// as the indentation indicator says.
func blockSpan(text []byte, starts []int, header, at, indent int) (head, content span) {
	lineEnd := func(off int) int {
		if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
			return off + i
		}
		return len(text)
	}
	h := text[at:lineEnd(at)]
	i := bytes.IndexAny(h, "|>")
	if i < 0 {
		return span{at, at, true}, span{at, at, false}
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
	if header >= len(starts) {
		return head, span{head.to, head.to, false}
	}
	from := starts[header]
	to := from
	for k := header; k < len(starts); k++ {
		l := text[starts[k]:lineEnd(starts[k])]
		ind := len(l) - len(bytes.TrimLeft(l, " "))
		blank := len(bytes.TrimSpace(l)) == 0
		if !blank && n < 0 {
			if ind <= indent {
				break
			}
			n = ind
		}
		if !blank && ind < n {
			break
		}
		to = starts[k] + len(l)
	}
	return head, span{from, to, false}
}
