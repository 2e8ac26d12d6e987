package manifest

import (
	"bytes"
	"runtime"

	"go.yaml.in/yaml/v3"
)

// A long list is read in parts, a few at a time. What kubectl get -o yaml prints for many
// objects, and what an InstanceTypeList of many items is, is one document whose root
// mapping has an items key and, below it, a block list, one item after another at one
// indentation: the YAML reader gives each item the same tree whether it reads the list
// whole or a run of items alone. So the document is read as its header (the document
// without the list, whose items key reads null) and parts of its list, runs of items of
// about partSize bytes, which are parsed, on up to partsAhead processors at once, as the
// decoder comes to their items, and let go once those are decoded: the tree of the whole
// list never exists, and reading it takes the memory of a few parts and of what is decoded
// of it, however long it is (a node list of thousands of nodes with fifty images each is
// millions of nodes). The document is read whole, as always, when anything could make the
// reading of a part differ from the whole's: an anchor or an alias (which reaches across
// items), a second items key at the top, or a problem reading any part (a quote or a
// bracket left open across items, which the whole's reading reports as it does). The trees
// are the same either way, positions included (a property test and a fuzz target hold
// them equal).

// splitMin is the smallest document read in parts; partSize about the text of a part.
var (
	splitMin = 1 << 20
	partSize = 256 << 10
)

// partsAhead is the most parts parsed at once: as many as there are processors, up to 4,
// so that the parts in memory do not grow with the processors.
func partsAhead() int { return min(runtime.GOMAXPROCS(0), 4) }

// MaxListNodes is the most nodes a long list read in parts may hold in all (each of its
// parts is held to MaxNodes, as a document read whole is): the node list of any real
// cluster is within it.
const MaxListNodes = 2 * MaxNodes

// itemsRegion finds the list below a top-level "items:" key: the offset of the key's
// line, of the list's first line and of the line after it, and the indentation of its
// items (0 when they are at the first column, as kubectl prints them). The list's first
// line that is not blank nor a comment must be an item; the list runs over item lines at
// that indentation, lines indented more, blank lines and comments, to the first line that
// is anything else.
func itemsRegion(data []byte) (key, start, end, indent int, ok bool) {
	key = -1
	for i := 0; i < len(data); {
		line, next := lineAt(data, i)
		if bytes.HasPrefix(line, []byte("items:")) {
			rest := bytes.TrimLeft(line[len("items:"):], " ")
			if key >= 0 || len(rest) > 0 && rest[0] != '\n' && rest[0] != '#' {
				return 0, 0, 0, 0, false // a second items key, or a value on its line
			}
			key, start = i, next
			if indent, ok = firstItem(data[start:]); !ok {
				return 0, 0, 0, 0, false
			}
			end = listEnd(data, start, indent)
			i = end
			continue
		}
		i = next
	}
	return key, start, end, indent, key >= 0 && end > start
}

// lineAt returns the line of data that starts at i, its line feed included, and the
// offset of the next line.
func lineAt(data []byte, i int) (line []byte, next int) {
	next = len(data)
	if eol := bytes.IndexByte(data[i:], '\n'); eol >= 0 {
		next = i + eol + 1
	}
	return data[i:next], next
}

// blankOrComment reports a line, less its indentation, that is blank or a comment.
func blankOrComment(trimmed []byte) bool {
	return len(trimmed) == 0 || trimmed[0] == '\n' || trimmed[0] == '\r' || trimmed[0] == '#'
}

// firstItem returns the indentation of the first line of list that is not blank nor a
// comment, if it is an item ("- ", or "-" alone).
func firstItem(list []byte) (int, bool) {
	for i := 0; i < len(list); {
		line, next := lineAt(list, i)
		i = next
		if trimmed := bytes.TrimLeft(line, " "); !blankOrComment(trimmed) {
			return len(line) - len(trimmed), isItem(trimmed)
		}
	}
	return 0, false
}

// isItem reports a line, less its indentation, that starts an item: "- " or "-" alone.
func isItem(trimmed []byte) bool {
	return len(trimmed) > 0 && trimmed[0] == '-' && (len(trimmed) == 1 || trimmed[1] == ' ' || trimmed[1] == '\n' || trimmed[1] == '\r')
}

// listEnd returns the offset of the first line from start that ends a list whose items are
// indented by indent (see itemsRegion).
func listEnd(data []byte, start, indent int) int {
	for i := start; i < len(data); {
		line, next := lineAt(data, i)
		trimmed := bytes.TrimLeft(line, " ")
		depth := len(line) - len(trimmed)
		if !blankOrComment(trimmed) && depth <= indent && (depth < indent || !isItem(trimmed)) {
			return i
		}
		i = next
	}
	return len(data)
}

// otherBreaks reports line breaks other than a line feed (a carriage return alone, NEL, LS,
// PS), which the YAML reader breaks lines at and the cutting into parts does not.
func otherBreaks(data []byte) bool {
	return containsBreak(data)
}

// mayHoldAlias reports whether data may hold an anchor or an alias: an & or a * where a
// token can begin (after a blank, an indicator or at a line's start).
func mayHoldAlias(data []byte) bool {
	for _, mark := range []byte{'&', '*'} {
		for i := 0; ; {
			j := bytes.IndexByte(data[i:], mark)
			if j < 0 {
				break
			}
			i += j
			if i == 0 {
				return true
			}
			switch data[i-1] {
			case ' ', '\t', '\n', '\r', '[', '{', ',', ':', '-', '?', '!':
				return true
			}
			i++
		}
	}
	return false
}

// longList is a long list document cut into parts (see above).
type longList struct {
	data    []byte
	seq     *yaml.Node // the list's node in the header, holding the items of one part at a time
	cuts    []int      // the offset in data of each part's first line, then of the list's end
	keyLine int        // the line of the items key
	start   int        // the offset of the list's first line
	// bangs and lineStarts are those of every part's retyper (see retyper), lineStarts
	// made at once, so that the retypers of parts parsed at once share it.
	bangs      bool
	lineStarts []int
}

// cutList returns the document node of data's header, the document without its list, and
// the list cut into parts of about size bytes, when data is a document whose list can be
// read in parts (see above), the header and each part within MaxNodes by their node
// bounds. The header holds the list's node in the items key's place, empty, and the nodes
// after the list are placed as in the whole.
func cutList(data []byte, size int) (*yaml.Node, *longList, bool) {
	key, start, end, indent, ok := itemsRegion(data)
	if !ok || end-start < len(data)/2 || mayHoldAlias(data) || otherBreaks(data) || end < len(data) && data[end] == ' ' {
		// (What follows the list must be at the first column: an indented line after it
		// would read as the items key's value in the rest, and is an error in the whole.)
		return nil, nil, false
	}
	mark := append(append([]byte("\n"), bytes.Repeat([]byte(" "), indent)...), "- "...)
	// Cut the list into parts of about size bytes, each at an item's first line.
	l := &longList{data: data, cuts: []int{start}, keyLine: 1 + bytes.Count(data[:key], []byte("\n")), start: start}
	for at := start + size; at < end; at = l.cuts[len(l.cuts)-1] + size {
		next := bytes.Index(data[at:end], mark)
		if next < 0 {
			break
		}
		l.cuts = append(l.cuts, at+next+1)
	}
	l.cuts = append(l.cuts, end)
	if l.bangs = bytes.IndexByte(data, '!') >= 0; l.bangs {
		l.lineStarts = lineStarts(data)
	}
	// The rest of the document, without the list: its items key reads as null.
	rest := make([]byte, 0, start+len(data)-end)
	rest = append(append(rest, data[:start]...), data[end:]...)
	if tooManyNodes(rest) {
		return nil, nil, false
	}
	for k := range len(l.cuts) - 1 {
		if tooManyNodes(data[l.cuts[k]:l.cuts[k+1]]) {
			return nil, nil, false
		}
	}
	var header yaml.Node
	if yaml.Unmarshal(rest, &header) != nil || len(header.Content) != 1 || header.Content[0].Kind != yaml.MappingNode {
		return nil, nil, false
	}
	// The list starts at its first item's "-", as the whole's reading places it.
	first := start
	for {
		line, next := lineAt(data, first)
		if t := bytes.TrimLeft(line, " "); len(t) > 0 && t[0] == '-' {
			break
		}
		first = next
	}
	l.seq = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: l.keyLine + 1 + bytes.Count(data[start:first], []byte("\n")), Column: indent + 1}
	// Put the list in the items key's place, and move what comes after it down.
	root := header.Content[0]
	placed := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Line == l.keyLine && k.Column == 1 && k.Value == "items" && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			root.Content[i+1] = l.seq
			placed = true
		}
	}
	if !placed {
		return nil, nil, false
	}
	listLines := bytes.Count(data[start:end], []byte("\n"))
	for _, n := range root.Content {
		if n != l.seq {
			moveAfter(n, l.keyLine, listLines)
		}
	}
	return &header, l, true
}

// tooManyNodes reports text whose node bound is over MaxNodes.
func tooManyNodes(text []byte) bool {
	return 2*len(text)+2 > MaxNodes && nodeBound(text) > MaxNodes
}

// part parses part k of the list: its items, with the lines they have in the whole, and
// the retyper that retyped them. It reports false when the part does not read alone as a
// list, or nests too deep.
func (l *longList) part(k int) ([]*yaml.Node, *retyper, bool) {
	var doc yaml.Node
	if yaml.Unmarshal(l.data[l.cuts[k]:l.cuts[k+1]], &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, nil, false
	}
	offset := l.keyLine + bytes.Count(l.data[l.start:l.cuts[k]], []byte("\n"))
	if !shiftLines(doc.Content[0], offset, 0) {
		return nil, nil, false
	}
	t := &retyper{source: l.data, bangs: l.bangs, lineStarts: l.lineStarts}
	for _, item := range doc.Content[0].Content {
		t.walkRoot(item)
	}
	return doc.Content[0].Content, t, true
}

// parts calls fn with the items of each part in order, and their retyper (see part),
// parsing up to ahead of them at once, until fn returns false.
func (l *longList) parts(ahead int, fn func(items []*yaml.Node, t *retyper, ok bool) bool) {
	type result struct {
		items []*yaml.Node
		t     *retyper
		ok    bool
	}
	n := len(l.cuts) - 1
	results := make([]chan result, n)
	parse := func(k int) {
		results[k] = make(chan result, 1)
		go func() {
			items, t, ok := l.part(k)
			results[k] <- result{items, t, ok}
		}()
	}
	for k := range min(ahead, n) {
		parse(k)
	}
	for k := range n {
		r := <-results[k]
		results[k] = nil
		if k+ahead < n {
			parse(k + ahead)
		}
		if !fn(r.items, r.t, r.ok) {
			return
		}
	}
}

// readsAlone reports whether every part of the list reads alone, for a document whose
// items are not decoded: otherwise the whole's reading finds the syntax error kubectl meets.
func (l *longList) readsAlone() bool {
	ok := true
	l.parts(partsAhead(), func(_ []*yaml.Node, _ *retyper, read bool) bool {
		ok = read
		return read
	})
	return ok
}

// maxPartDepth is the deepest a part's tree may be: the YAML reader refuses a document
// nested more than 10,000 levels, and a part's items sit a level higher than the whole's.
const maxPartDepth = 9000

// shiftLines adds offset to the line of n and of every node below it, and reports whether
// the tree is within maxPartDepth.
func shiftLines(n *yaml.Node, offset, depth int) bool {
	if depth > maxPartDepth {
		return false
	}
	n.Line += offset
	for _, c := range n.Content {
		if !shiftLines(c, offset, depth+1) {
			return false
		}
	}
	return true
}

// moveAfter moves down by lines the nodes of n's tree that are after line.
func moveAfter(n *yaml.Node, line, lines int) {
	if n.Line > line {
		n.Line += lines
	}
	for _, c := range n.Content {
		moveAfter(c, line, lines)
	}
}
