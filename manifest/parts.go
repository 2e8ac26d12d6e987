package manifest

import (
	"bytes"
	"runtime"
	"sync"

	"go.yaml.in/yaml/v3"
)

// A long list is parsed in parts, in parallel. What kubectl get -o yaml prints for many
// objects, and what an InstanceTypeList of many items is, is one document whose root
// mapping has an items key and, below it, a block list at the first column, one item after
// another: the YAML reader gives each item the same tree whether it reads the list whole or
// a run of items alone, so parts of the list are read at once on the machine's processors
// and put together. The document is read whole, as always, when anything could make the
// reading of a part differ from the whole's: an anchor or an alias (which reaches across
// items), items not at the first column, a second items key at the top, or a problem
// reading any part (a quote or a bracket left open across items, which the whole's reading
// reports as it does). The trees are the same either way, positions included (a property
// test and a fuzz target hold them equal).

// splitMin is the smallest document read in parts; splitParts the most parts.
var (
	splitMin   = 1 << 20
	splitParts = 16
)

// parseDocument parses one YAML document, as yaml.Unmarshal does, into its document node.
func parseDocument(data []byte) (*yaml.Node, error) {
	if procs := runtime.GOMAXPROCS(0); procs > 1 && len(data) >= splitMin {
		if doc, ok := parseInParts(data, min(2*procs, splitParts)); ok {
			return doc, nil
		}
	}
	var doc yaml.Node
	err := yaml.Unmarshal(data, &doc)
	return &doc, err
}

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
	return bytes.IndexByte(data, '\r') >= 0 || containsBreak(data)
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

// parseInParts parses data in parts, in parallel, when it is a document whose items can
// be (see above), and reports whether it did.
func parseInParts(data []byte, parts int) (*yaml.Node, bool) {
	key, start, end, indent, ok := itemsRegion(data)
	if !ok || end-start < len(data)/2 || mayHoldAlias(data) || otherBreaks(data) || end < len(data) && data[end] == ' ' {
		// (What follows the list must be at the first column: an indented line after it
		// would read as the items key's value in the rest, and is an error in the whole.)
		return nil, false
	}
	mark := append(append([]byte("\n"), bytes.Repeat([]byte(" "), indent)...), "- "...)
	// Cut the list into parts of about equal size, each at an item's first line.
	cuts := []int{start}
	for p := 1; p < parts; p++ {
		at := start + (end-start)*p/parts
		if at <= cuts[len(cuts)-1] {
			continue
		}
		next := bytes.Index(data[at:end], mark)
		if next < 0 {
			break
		}
		cut := at + next + 1
		if cut > cuts[len(cuts)-1] {
			cuts = append(cuts, cut)
		}
	}
	cuts = append(cuts, end)
	keyLine := 1 + bytes.Count(data[:key], []byte("\n"))
	listLines := bytes.Count(data[start:end], []byte("\n"))

	type result struct {
		items []*yaml.Node
		ok    bool
	}
	results := make([]result, len(cuts)-1)
	var header yaml.Node
	headerOK := false
	var wg sync.WaitGroup
	for k := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var doc yaml.Node
			text := data[cuts[k]:cuts[k+1]]
			if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
				return
			}
			offset := keyLine + bytes.Count(data[start:cuts[k]], []byte("\n"))
			if shiftLines(doc.Content[0], offset, 0) {
				results[k] = result{doc.Content[0].Content, true}
			}
		}()
	}
	// The rest of the document, without the list: its items key reads as null.
	rest := make([]byte, 0, start+len(data)-end)
	rest = append(append(rest, data[:start]...), data[end:]...)
	headerOK = yaml.Unmarshal(rest, &header) == nil && len(header.Content) == 1 && header.Content[0].Kind == yaml.MappingNode
	wg.Wait()
	if !headerOK {
		return nil, false
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
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: keyLine + 1 + bytes.Count(data[start:first], []byte("\n")), Column: indent + 1}
	for _, r := range results {
		if !r.ok {
			return nil, false
		}
		seq.Content = append(seq.Content, r.items...)
	}
	// Put the list in the items key's place, and move what comes after it down.
	root := header.Content[0]
	placed := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Line == keyLine && k.Column == 1 && k.Value == "items" && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			root.Content[i+1] = seq
			placed = true
		}
	}
	if !placed {
		return nil, false
	}
	for _, n := range root.Content {
		if n != seq {
			moveAfter(n, keyLine, listLines)
		}
	}
	return &header, true
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
