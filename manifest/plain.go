package manifest

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// plainMaxSize is the largest document parsePlain reads: past it, the YAML reader's
// cost per byte is no longer what a small file's is dominated by.
const plainMaxSize = 64 << 10

// parsePlain parses a document of the plainest form of YAML as go.yaml.in/yaml/v3 parses
// it, to the same tree of nodes (kinds, tags, values, styles, lines and columns), at a
// fraction of its cost; for any other document it returns nil, and the YAML reader
// parses it. Most manifests kept in files one object each are of that form, and on such
// small files the reader's setup and per-token work are most of what reading one costs.
//
// The form: printable ASCII lines indented with spaces, without trailing spaces, of block
// mappings ("key: value", or "key:" with a block below) and block sequences ("- value",
// or "- key: value" opening a mapping); keys and values are double-quoted strings without
// escapes, or plain scalars of letters, digits and "._/-" that begin with a letter or a
// digit, whose tag is plain to tell (a string, a decimal integer, a quantity such as
// 500m or 2Gi, true, false, null). Anything else — comments, flow collections, anchors,
// tags, block scalars, single quotes, escapes, empty values, documents markers, tabs,
// carriage returns, values on more than one line — is left to the YAML reader.
// FuzzPlainYAML holds the two parsers to one tree on every input parsePlain reads.
func parsePlain(data []byte) *yaml.Node {
	if len(data) > plainMaxSize || len(data) == 0 {
		return nil
	}
	nl := 0
	for _, b := range data {
		if b == '\n' {
			nl++
			continue
		}
		if b < 0x20 || b > 0x7e || plainRefused[b] {
			return nil
		}
	}
	p := plainParser{text: string(data)}
	p.lines = make([]plainLine, 0, nl+1)
	for num, rest := 1, p.text; rest != ""; num++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == len(line) {
			continue // blank
		}
		if line[len(line)-1] == ' ' || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...") {
			return nil
		}
		p.lines = append(p.lines, plainLine{num: num, indent: indent, text: line[indent:]})
	}
	if len(p.lines) == 0 {
		return nil
	}
	p.nodes = make([]yaml.Node, 0, 2*len(p.lines)+2) // most lines make two nodes; past that, nodes are allocated one by one
	root := p.block(p.lines[0].indent)
	if root == nil || p.i != len(p.lines) {
		return nil
	}
	doc := p.node(yaml.DocumentNode, "", "", root.Line, root.Column)
	doc.Content = []*yaml.Node{root}
	return doc
}

// plainRefused are the bytes that end parsePlain's reading of a document.
var plainRefused = func() (t [256]bool) {
	for _, b := range []byte("#&*!|>%@`{}[],?\\'") {
		t[b] = true
	}
	return t
}()

type plainLine struct {
	num, indent int
	text        string // the line after its indent
}

type plainParser struct {
	text  string
	lines []plainLine
	i     int         // the next line
	nodes []yaml.Node // where nodes are made: never grown, so that pointers into it stay valid
}

func (p *plainParser) node(kind yaml.Kind, tag, value string, line, column int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		return &yaml.Node{Kind: kind, Tag: tag, Value: value, Line: line, Column: column}
	}
	// Set field by field in the zeroed slab: a whole node copied in takes the collector's
	// write barrier for each of its pointers.
	p.nodes = p.nodes[:len(p.nodes)+1]
	n := &p.nodes[len(p.nodes)-1]
	n.Kind, n.Tag, n.Value, n.Line, n.Column = kind, tag, value, line, column
	return n
}

// block parses the block mapping or sequence that begins at the current line, whose
// indent is indent.
func (p *plainParser) block(indent int) *yaml.Node {
	l := p.lines[p.i]
	if l.indent != indent {
		return nil
	}
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

// mapping parses a block mapping whose keys are indented by indent.
func (p *plainParser) mapping(indent int) *yaml.Node {
	l := p.lines[p.i]
	m := p.node(yaml.MappingNode, "!!map", "", l.num, indent+1)
	for p.i < len(p.lines) {
		l = p.lines[p.i]
		if l.indent < indent || l.indent == indent && dash(l.text) {
			break // the mapping ends; a sequence at its indent belongs to the mapping's parent
		}
		if l.indent > indent {
			return nil
		}
		k, rest := p.scalar(l, 0)
		if k == nil || rest == "" || rest[0] != ':' {
			return nil
		}
		rest = rest[1:]
		var v *yaml.Node
		switch {
		case rest == "":
			// The value is the block below: deeper, or a sequence at the key's indent.
			p.i++
			if p.i == len(p.lines) {
				return nil // null
			}
			next := p.lines[p.i]
			if next.indent < indent || next.indent == indent && !dash(next.text) {
				return nil // null
			}
			if v = p.block(next.indent); v == nil {
				return nil
			}
		case rest[0] == ' ':
			var end string
			if v, end = p.scalar(l, len(l.text)-len(strings.TrimLeft(rest, " "))); v == nil || end != "" {
				return nil
			}
			p.i++
		default:
			return nil
		}
		m.Content = append(m.Content, k, v)
	}
	return m
}

// dash reports whether a line's text is an item of a block sequence.
func dash(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// sequence parses a block sequence whose dashes are indented by indent.
func (p *plainParser) sequence(indent int) *yaml.Node {
	l := p.lines[p.i]
	s := p.node(yaml.SequenceNode, "!!seq", "", l.num, indent+1)
	for p.i < len(p.lines) {
		l = p.lines[p.i]
		if l.indent < indent || l.indent == indent && !dash(l.text) {
			break
		}
		if l.indent > indent || l.text == "-" {
			return nil
		}
		at := len(l.text) - len(strings.TrimLeft(l.text[1:], " "))
		var e *yaml.Node
		if _, _, _, rest := scanScalar(l.text[at:]); rest == ":" || strings.HasPrefix(rest, ": ") {
			// "- key: ..." opens a mapping at the key's column: read its first line as one
			// indented there.
			p.lines[p.i] = plainLine{num: l.num, indent: l.indent + at, text: l.text[at:]}
			if e = p.mapping(l.indent + at); e == nil {
				return nil
			}
		} else {
			var end string
			if e, end = p.scalar(l, at); e == nil || end != "" {
				return nil
			}
			p.i++
		}
		s.Content = append(s.Content, e)
	}
	return s
}

// scalar makes the node of the scalar at offset at of line l's text, and returns it
// and the text after it, or nil.
func (p *plainParser) scalar(l plainLine, at int) (*yaml.Node, string) {
	tag, value, style, rest := scanScalar(l.text[at:])
	if tag == "" {
		return nil, ""
	}
	n := p.node(yaml.ScalarNode, tag, value, l.num, l.indent+at+1)
	n.Style = style
	return n, rest
}

// scanScalar reads the scalar that begins t: its tag, value and style, and the text
// after it; no tag when it is not of parsePlain's form. A plain scalar ends at the first
// byte that is not of one (at ':', the end of a key).
func scanScalar(t string) (tag, value string, style yaml.Style, rest string) {
	if t == "" {
		return "", "", 0, ""
	}
	if t[0] == '"' {
		end := strings.IndexByte(t[1:], '"')
		if end < 0 {
			return "", "", 0, ""
		}
		return "!!str", t[1 : 1+end], yaml.DoubleQuotedStyle, t[2+end:]
	}
	n := 0
	for n < len(t) && plainBytes[t[n]] {
		n++
	}
	value, rest = t[:n], t[n:]
	if len(value) > 1024 || rest != "" && rest != ":" && !strings.HasPrefix(rest, ": ") {
		return "", "", 0, ""
	}
	return plainNodeTag(value), value, 0, rest
}

// plainBytes are the bytes of parsePlain's plain scalars.
var plainBytes = func() (t [256]bool) {
	for _, r := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-" {
		t[r] = true
	}
	return t
}()

// plainNodeTag is the tag go.yaml.in/yaml/v3 resolves the plain scalar v to, when it is one of
// parsePlain's: "" for any other.
func plainNodeTag(v string) string {
	if v == "" {
		return ""
	}
	switch c := v[0]; {
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool"
		case "null", "Null", "NULL":
			return "!!null"
		}
		return "!!str"
	case '0' <= c && c <= '9':
		digits := len(v) - len(strings.TrimLeft(v, "0123456789"))
		switch suffix := v[digits:]; suffix {
		case "":
			// A decimal integer that fits in 64 bits; 0755, an octal one to the YAML
			// reader, and longer numbers are left to it.
			if (v[0] != '0' || len(v) == 1) && digits <= 18 {
				return "!!int"
			}
		case "m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi":
			// A quantity: neither an integer, a float nor a timestamp to the reader.
			return "!!str"
		}
	}
	return ""
}
