package source

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Positions are a second question, asked only of a document that has something to report:
// its text is parsed by go.yaml.in/yaml/v3, once, on the first question, and a path is
// looked up in that tree. The values are never yaml.v3's: they are kubectl's (Value). Where
// the two readers disagree, or yaml.v3 cannot parse what kubectl reads, the answer falls
// back to the nearest node found, or to the document's first line.

// tree is a text parsed by yaml.v3, for positions.
type tree struct {
	root    *yaml.Node // the content of the document, nil when it cannot be parsed
	err     error
	errLine int      // the line yaml.v3's error names, in the text, or 1
	at      Position // where the text starts in the file
	index   map[*yaml.Node]map[string]int
}

// parse parses text, which starts at at in its file.
func parse(text []byte, at Position) *tree {
	t := &tree{at: at, errLine: 1}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.err = err
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if i := strings.IndexByte(rest, ':'); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil && n > 0 {
					t.errLine = readerLine(n, strings.TrimSpace(rest[i+1:]))
				}
			}
		}
		return t
	}
	if len(doc.Content) > 0 {
		t.root = doc.Content[0]
	}
	return t
}

// parsed returns the tree of the document's text, parsing it on the first call.
func (d *Document) parsed() *tree {
	d.treeOnce.Do(func() {
		switch {
		case nodeBound(d.text) > maxNodes:
			d.tree = &tree{at: d.textAt(), errLine: 1}
		case d.JSON:
			d.tree = parseJSON(d.text, d.textAt())
		default:
			d.tree = parse(d.text, d.textAt())
		}
	})
	return d.tree
}

// parseJSON makes the tree of a JSON value, text, which starts at at in its file, with
// encoding/json's decoder: its nodes are yaml.v3's, for the questions of positions, and
// every key is kept, a key set twice too. JSON's escapes (a surrogate pair, \/) are read
// as encoding/json reads them, which yaml.v3's parser does not always do.
func parseJSON(text []byte, at Position) *tree {
	t := &tree{at: at, errLine: 1}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	lc := lineCursor{text: text, line: 1}
	var node func(depth int) (*yaml.Node, bool)
	next := func() (json.Token, Position, bool) {
		off := int(dec.InputOffset())
		for off < len(text) && strings.IndexByte(" \t\r\n,:", text[off]) >= 0 {
			off++
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, Position{}, false
		}
		return tok, lc.position(off), true
	}
	node = func(depth int) (*yaml.Node, bool) {
		tok, pos, ok := next()
		if !ok || depth > 10000 {
			return nil, false
		}
		n := &yaml.Node{Line: pos.Line, Column: pos.Column}
		switch tok := tok.(type) {
		case json.Delim:
			n.Kind, n.Style = yaml.MappingNode, yaml.FlowStyle
			if tok == '[' {
				n.Kind = yaml.SequenceNode
			}
			for dec.More() {
				if n.Kind == yaml.MappingNode {
					k, ok := node(depth + 1)
					if !ok {
						return nil, false
					}
					n.Content = append(n.Content, k)
				}
				v, ok := node(depth + 1)
				if !ok {
					return nil, false
				}
				n.Content = append(n.Content, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, false
			}
		case string:
			n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", tok, yaml.DoubleQuotedStyle
		case json.Number:
			n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!float", string(tok)
			if !strings.ContainsAny(string(tok), ".eE") {
				n.Tag = "!!int"
			}
		case bool:
			n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", strconv.FormatBool(tok)
		case nil:
			n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
		}
		return n, true
	}
	if root, ok := node(0); ok {
		t.root = root
	}
	return t
}

// pos is the position in the file of node n of the tree.
func (t *tree) pos(n *yaml.Node) Position {
	p := Position{t.at.Line + n.Line - 1, n.Column}
	if n.Line == 1 {
		p.Column += t.at.Column - 1
	}
	return p
}

// segment is one step of a field path: a field or map key, or a list index.
type segment struct {
	name    string
	index   int
	isIndex bool
}

// nextSegment cuts the first step off a path in apimachinery's notation (a.b[2][key].c): a
// bracket holds an index or a map key; a key may hold "]", so a bracket ends at a "]"
// followed by "." or "[" or the end.
func nextSegment(p string) (segment, string, bool) {
	p = strings.TrimPrefix(p, ".")
	if p == "" {
		return segment{}, "", false
	}
	if p[0] == '[' {
		for i := 1; i < len(p); i++ {
			if p[i] == ']' && (i+1 == len(p) || p[i+1] == '.' || p[i+1] == '[') {
				name := p[1:i]
				if n, err := strconv.Atoi(name); err == nil && n >= 0 && name == strconv.Itoa(n) {
					return segment{name: name, index: n, isIndex: true}, p[i+1:], true
				}
				return segment{name: name}, p[i+1:], true
			}
		}
		return segment{name: p[1:]}, "", true
	}
	i := strings.IndexAny(p, ".[")
	if i < 0 {
		return segment{name: p}, "", true
	}
	return segment{name: p[:i]}, p[i:], true
}

// find follows path from n: the node it leads to (for a mapping entry, its key; for a list
// item, the item) and its value, or the last ones found on the way and false.
func (t *tree) find(n *yaml.Node, path string) (at, value *yaml.Node, ok bool) {
	return t.findFrom(n, n, path, 0)
}

// findFrom is find, from the node at, whose value is value.
func (t *tree) findFrom(at, value *yaml.Node, path string, depth int) (*yaml.Node, *yaml.Node, bool) {
	for {
		seg, rest, more := nextSegment(path)
		if !more {
			return at, value, true
		}
		if longer := longerKeys(path, seg); len(longer) > 0 && depth < 8 && deref(value) != nil && deref(value).Kind == yaml.MappingNode {
			// A key that may hold "]" followed by "." or "[" (a].b): the reading of the
			// brackets that leads to the whole path, else the first that leads anywhere.
			for _, c := range append([]keyReading{{seg, rest}}, longer...) {
				if k, v := t.step(deref(value), c.seg, 0); k != nil {
					if a, x, ok := t.findFrom(k, v, c.rest, depth+1); ok {
						return a, x, true
					}
				}
			}
		}
		k, v := t.step(deref(value), seg, 0)
		if k == nil {
			return at, value, false
		}
		at, value, path = k, v, rest
	}
}

// keyReading is a reading of the first step of a path, and the rest of the path.
type keyReading struct {
	seg  segment
	rest string
}

// longerKeys returns, for a path whose first step nextSegment cut as seg, the readings of
// a bracketed key that ends at a later "]" (followed by ".", "[" or the end): the key
// "a].b" of the path [a].b].c, which nextSegment reads as [a], then .b].c.
func longerKeys(p string, seg segment) []keyReading {
	p = strings.TrimPrefix(p, ".")
	if p == "" || p[0] != '[' || seg.isIndex {
		return nil
	}
	var out []keyReading
	for i := 1 + len(seg.name) + 1; i < len(p); i++ {
		if p[i] == ']' && (i+1 == len(p) || p[i+1] == '.' || p[i+1] == '[') {
			out = append(out, keyReading{segment{name: p[1:i]}, p[i+1:]})
		}
	}
	return out
}

// step is one step of find: the key and value of seg in mapping n, or the item of a list.
func (t *tree) step(n *yaml.Node, seg segment, depth int) (key, value *yaml.Node) {
	if n == nil || depth > 64 {
		return nil, nil
	}
	switch n.Kind {
	case yaml.SequenceNode:
		if seg.isIndex && seg.index < len(n.Content) {
			return n.Content[seg.index], n.Content[seg.index]
		}
	case yaml.MappingNode:
		if i, ok := t.lookup(n, seg.name); ok {
			return n.Content[i], n.Content[i+1]
		}
		// A key a merge brings.
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
				m := deref(n.Content[i+1])
				if m != nil && m.Kind == yaml.SequenceNode {
					for _, e := range m.Content {
						if k, v := t.step(deref(e), seg, depth+1); k != nil {
							return k, v
						}
					}
				} else if k, v := t.step(m, seg, depth+1); k != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

// lookup returns the index in n.Content of the last key named name (the one in effect),
// through an index built once for a large mapping, so that finding many keys of one costs
// a lookup each.
func (t *tree) lookup(n *yaml.Node, name string) (int, bool) {
	if len(n.Content) <= 32 {
		for i := len(n.Content) - 2; i >= 0; i -= 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == name {
				return i, true
			}
		}
		return 0, false
	}
	if t.index == nil {
		t.index = map[*yaml.Node]map[string]int{}
	}
	m, ok := t.index[n]
	if !ok {
		m = make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode {
				m[k.Value] = i
			}
		}
		t.index[n] = m
	}
	i, ok := m[name]
	return i, ok
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// PositionOf returns the position in the file of the node at path, a field path relative to
// the document in apimachinery's notation (as field.Path.String renders it:
// spec.resources.limits[nvidia.com/gpu], items[3].metadata.name): for a mapping entry,
// the position of its key; for a list item, of the item. For a path that leads nowhere (a
// missing field), or that yaml.v3 reads otherwise than kubectl, it is the position of the
// nearest node on the way, or of the document's start.
//
// The first call parses the document's text with yaml.v3; each call then costs the length
// of the path.
func (d *Document) PositionOf(path string) Position {
	p, _ := d.locate(path)
	return p
}

// ValuePositionOf is PositionOf, but for a mapping entry, the position of its value: where
// a pipeline's step starts, below its name.
func (d *Document) ValuePositionOf(path string) Position {
	t, rest := d.treeOf(path)
	if t.root == nil {
		return t.at
	}
	at, v, ok := t.find(t.root, rest)
	if ok && v != nil {
		return t.pos(v)
	}
	return t.pos(at)
}

// locate is PositionOf, and whether the path was found whole.
func (d *Document) locate(path string) (Position, bool) {
	t, rest := d.treeOf(path)
	if t.root == nil {
		return t.at, false
	}
	at, _, ok := t.find(t.root, rest)
	return t.pos(at), ok
}

// treeOf returns the tree that holds path, and the path within it: the document's, or,
// in a long list, the tree of the run of items that holds the item.
func (d *Document) treeOf(path string) (*tree, string) {
	if d.long != nil {
		if rest, ok := strings.CutPrefix(path, "items["); ok {
			if i := strings.IndexByte(rest, ']'); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					if c, k := d.long.chunkOf(n); c != nil {
						if c.isJSON {
							return c.parsed(), rest[i+1:]
						}
						return c.parsed(), "[" + strconv.Itoa(k) + "]" + rest[i+1:]
					}
				}
			}
		}
	}
	return d.parsed(), path
}

// Scalar is a scalar of a document as written.
type Scalar struct {
	// Value is its text, after escapes and folding: "yes" for yes, "1" for '1'.
	Value string
	// Tag is the tag yaml.v3 resolves (YAML 1.2: !!str, !!int, !!float, !!bool,
	// !!null), or the one written, which Tagged reports; Quoted reports a quoted scalar,
	// Block a literal or folded one.
	Tag                   string
	Tagged, Quoted, Block bool
	// Position is where it is.
	Position
}

// Scalar returns the scalar at path as written, when there is one there (see PositionOf).
func (d *Document) Scalar(path string) (Scalar, bool) {
	t, rest := d.treeOf(path)
	if t.root == nil {
		return Scalar{}, false
	}
	_, v, ok := t.find(t.root, rest)
	if v = deref(v); !ok || v == nil || v.Kind != yaml.ScalarNode {
		return Scalar{}, false
	}
	return Scalar{Value: v.Value, Tag: v.Tag, Tagged: v.Style&yaml.TaggedStyle != 0, Quoted: v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0,
		Block: v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0, Position: t.pos(v)}, true
}

// Duplicate is a key set twice in one mapping.
type Duplicate struct {
	// Path is where the mapping is, from the document: keys and list indexes.
	Path []PathStep
	// Key is the key as kubectl reads it, its JSON key ("1" for 0x1); Merge reports two
	// merge keys (<<), which both apply.
	Key   string
	Merge bool
	// At is the later key, First the earlier.
	At, First Position
}

// PathStep is a step of a Duplicate's path: a key, as kubectl reads it, or a list index.
type PathStep struct {
	Key     string
	Index   int
	IsIndex bool
}

// Duplicates returns the keys set twice in a mapping of the document, in order, when
// HasDuplicates reports some, or when the document holds more than one merge key (which a
// mapping may then hold twice): keys kubectl reads as one, as sigs.k8s.io/yaml converts
// them (1 and 0x1 are the key "1"), placed by yaml.v3.
func (d *Document) Duplicates() []Duplicate {
	if d.long != nil {
		var out []Duplicate
		for _, c := range d.long.chunks {
			if !c.dups {
				continue
			}
			for _, dup := range duplicates(c.parsed()) {
				if c.isJSON {
					dup.Path = append([]PathStep{{Key: "items"}, {Index: c.first, IsIndex: true}}, dup.Path...)
				} else if len(dup.Path) > 0 && dup.Path[0].IsIndex {
					dup.Path[0].Index += c.first
					dup.Path = append([]PathStep{{Key: "items"}}, dup.Path...)
				}
				out = append(out, dup)
			}
		}
		return out
	}
	if !d.dups && bytes.Count(d.text, []byte("<<")) < 2 {
		return nil
	}
	return duplicates(d.parsed())
}

// duplicates finds the keys set twice in the mappings of t: keys kubectl reads as one
// (see kubectlKeys).
func duplicates(t *tree) []Duplicate {
	if t.root == nil {
		return nil
	}
	// The walk, twice: once to gather the keys, once to compare them as kubectl reads them.
	var keys []*yaml.Node
	var ids []string
	var out []Duplicate
	var path []PathStep
	var walk func(n *yaml.Node)
	var seen map[*yaml.Node]bool
	next := 0
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] || len(path) > 1000 {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.SequenceNode:
			for i, c := range n.Content {
				path = append(path, PathStep{Index: i, IsIndex: true})
				walk(c)
				path = path[:len(path)-1]
			}
		case yaml.MappingNode:
			var first map[string]*yaml.Node
			if ids != nil {
				first = map[string]*yaml.Node{}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				name := k.Value
				if s := deref(k); s != nil && s.Kind == yaml.ScalarNode {
					name = s.Value
					if ids == nil {
						keys = append(keys, k)
					} else {
						name = ids[next]
						next++
						id := name
						merge := k.Kind == yaml.ScalarNode && k.Tag == "!!merge"
						if merge {
							name, id = "<<", "\x00<<" // both apply: a key of its own
						}
						if f, ok := first[id]; ok {
							out = append(out, Duplicate{Path: append([]PathStep(nil), path...), Key: name,
								Merge: merge, At: t.pos(k), First: t.pos(f)})
						} else {
							first[id] = k
						}
					}
				}
				path = append(path, PathStep{Key: name})
				walk(n.Content[i+1])
				path = path[:len(path)-1]
			}
		}
	}
	seen = map[*yaml.Node]bool{}
	walk(t.root)
	ids = kubectlKeys(keys)
	seen = map[*yaml.Node]bool{}
	walk(t.root)
	return out
}

// kubectlKeys returns the key kubectl makes of each of the scalar mapping keys keys: their
// JSON keys, as sigs.k8s.io/yaml converts them, asked of it for all of them at once (each
// key as written once), so that keys kubectl reads as one are one (1 and 0x1 are "1", yes
// and true are "true"). When it cannot be asked so, a key is its tag and text as yaml.v3
// reads it.
func kubectlKeys(keys []*yaml.Node) []string {
	ids := make([]string, len(keys))
	at := make([]int, len(keys)) // the line of the batch that asks for each key
	lines := map[string]int{}
	var b bytes.Buffer
	for i, k := range keys {
		k = deref(k)
		var line string
		switch {
		case k.Tag == "!!merge":
			line = `"<<"` // a merge key, or an alias to one (the string "<<")
		case k.Style&yaml.TaggedStyle != 0:
			tag := k.Tag
			if !strings.HasPrefix(tag, "!") {
				tag = "!<" + tag + ">"
			}
			line = tag + " " + strconv.Quote(k.Value)
		case k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
			line = strconv.Quote(k.Value)
		default:
			line = k.Value // as written: kubectl types a plain scalar by its text
		}
		n, ok := lines[line]
		if !ok {
			n = len(lines)
			lines[line] = n
			b.WriteString("- " + line + ": 0\n")
		}
		at[i] = n
	}
	var got []map[string]json.RawMessage
	if j, err := sigsyaml.YAMLToJSON(b.Bytes()); err == nil && json.Unmarshal(j, &got) == nil && len(got) == len(lines) {
		asked := make([]string, len(got))
		ok := true
		for i, m := range got {
			ok = ok && len(m) == 1
			for id := range m {
				asked[i] = id
			}
		}
		if ok {
			for i := range keys {
				ids[i] = asked[at[i]]
			}
			return ids
		}
	}
	for i, k := range keys {
		k = deref(k)
		ids[i] = k.Tag + "\x00" + k.Value
	}
	return ids
}
