package manifest

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// JSON files are read by JSON rules, as kubectl reads a file whose first character other
// than white space is "{": a stream of JSON values, each a document. The values become
// node trees like the YAML reader's, so that one decoder serves both, with the tags JSON
// gives them: strings (every escape decoded as encoding/json decodes it, invalid UTF-8 and
// lone surrogates replaced by U+FFFD), numbers (!!int, or !!float when written with a
// fraction or an exponent, their text as written), true and false, null.

// maxJSONDepth is encoding/json's limit on nesting.
const maxJSONDepth = 10000

// jsonReader reads JSON values from data, with the position of every value and key.
type jsonReader struct {
	data  []byte
	off   int
	line  int // the line of off, from 1
	lnOff int // the offset where that line starts
	// The column of colOff, a point on the current line: columns count characters, and
	// counting from the last point keeps positions linear in the length of a long line.
	colOff, col int
	nodes       int // nodes made
	limit       int // the most nodes one value may have
	// refused are the values of the value being read that kubectl refuses: numbers beyond
	// the range of a 64-bit float, which its decoder cannot read.
	refused map[*yaml.Node]string
	// tooLong is the first string or number of the value being read longer than
	// MaxScalarSize.
	tooLong *yaml.Node
	slab    []yaml.Node // where nodes are made (see node)
}

// jsonError is a syntax error at a place in a JSON text.
type jsonError struct {
	pos   Position
	msg   string
	limit bool // a limit of this reader (MaxNodes), not a problem kubectl has
}

func (e *jsonError) Error() string { return e.msg }

func newJSONReader(data []byte) *jsonReader {
	return &jsonReader{data: data, line: 1, col: 1}
}

// position returns the position of off, which must not be before the last one asked for.
func (r *jsonReader) position(off int) Position {
	for r.colOff < off {
		c := r.data[r.colOff]
		if c < utf8.RuneSelf {
			r.colOff++
		} else {
			_, size := utf8.DecodeRune(r.data[r.colOff:])
			r.colOff += size
		}
		r.col++
	}
	return Position{Line: r.line, Column: r.col}
}

func (r *jsonReader) fail(format string, args ...any) error {
	return &jsonError{pos: r.position(min(r.off, len(r.data))), msg: fmt.Sprintf(format, args...)}
}

// space skips JSON white space: spaces, tabs, line feeds and carriage returns.
func (r *jsonReader) space() {
	for r.off < len(r.data) {
		switch r.data[r.off] {
		case ' ', '\t', '\r':
			r.off++
		case '\n':
			r.off++
			r.line++
			r.lnOff, r.colOff, r.col = r.off, r.off, 1
		default:
			return
		}
	}
}

// more reports whether anything but white space is left.
func (r *jsonReader) more() bool {
	r.space()
	return r.off < len(r.data)
}

// node returns a new node at pos. Nodes are made in slabs, of up to 1,024, never grown
// (pointers into them stay valid): one allocation for many nodes, side by side in memory.
func (r *jsonReader) node(pos Position) *yaml.Node {
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]yaml.Node, 0, min(max(2*cap(r.slab), 16), 1024))
	}
	r.slab = r.slab[:len(r.slab)+1]
	n := &r.slab[len(r.slab)-1]
	n.Line, n.Column = pos.Line, pos.Column
	return n
}

// value reads one value and returns its tree.
func (r *jsonReader) value(depth int) (*yaml.Node, error) {
	r.space()
	if r.off >= len(r.data) {
		return nil, r.fail("unexpected end of JSON input")
	}
	if r.nodes++; r.nodes > r.limit {
		return nil, &jsonError{pos: r.position(r.off), msg: fmt.Sprintf("document too large: more than %d nodes", r.limit), limit: true}
	}
	n := r.node(r.position(r.off))
	switch c := r.data[r.off]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return nil, r.fail("exceeded max depth of %d", maxJSONDepth)
		}
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
		r.off++
		if r.space(); r.off < len(r.data) && r.data[r.off] == '}' {
			r.off++
			return n, nil
		}
		for {
			r.space()
			if r.off >= len(r.data) || r.data[r.off] != '"' {
				return nil, r.unexpected("looking for beginning of object key string")
			}
			k, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if r.space(); r.off >= len(r.data) || r.data[r.off] != ':' {
				return nil, r.unexpected("after object key")
			}
			r.off++
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, k, v)
			if r.space(); r.off < len(r.data) && r.data[r.off] == ',' {
				r.off++
				continue
			}
			if r.off < len(r.data) && r.data[r.off] == '}' {
				r.off++
				return n, nil
			}
			return nil, r.unexpected("after object key:value pair")
		}
	case c == '[':
		if depth >= maxJSONDepth {
			return nil, r.fail("exceeded max depth of %d", maxJSONDepth)
		}
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		r.off++
		if r.space(); r.off < len(r.data) && r.data[r.off] == ']' {
			r.off++
			return n, nil
		}
		for {
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
			if r.space(); r.off < len(r.data) && r.data[r.off] == ',' {
				r.off++
				continue
			}
			if r.off < len(r.data) && r.data[r.off] == ']' {
				r.off++
				return n, nil
			}
			return nil, r.unexpected("after array element")
		}
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, tagStr, s, yaml.DoubleQuotedStyle
		r.scalar(n)
		return n, nil
	case c == '-' || '0' <= c && c <= '9':
		text, float, err := r.num()
		if err != nil {
			return nil, err
		}
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, tagInt, text
		if float {
			n.Tag = tagFloat
		}
		r.scalar(n)
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			// kubectl decodes JSON numbers as float64 (or int64): one beyond its range is
			// "cannot unmarshal number ... into Go value of type float64".
			if r.refused == nil {
				r.refused = make(map[*yaml.Node]string)
			}
			r.refused[n] = "must be within the range of a 64-bit float (about ±1.8e308): kubectl's decoder refuses the document"
		}
		return n, nil
	default:
		for _, lit := range [...]struct{ text, tag string }{{"true", tagBool}, {"false", tagBool}, {"null", tagNull}} {
			if len(r.data)-r.off >= len(lit.text) && string(r.data[r.off:r.off+len(lit.text)]) == lit.text {
				r.off += len(lit.text)
				n.Kind, n.Tag, n.Value = yaml.ScalarNode, lit.tag, lit.text
				return n, nil
			}
		}
		return nil, r.unexpected("looking for beginning of value")
	}
}

// scalar notes a string or number n longer than MaxScalarSize.
func (r *jsonReader) scalar(n *yaml.Node) {
	if len(n.Value) > MaxScalarSize && r.tooLong == nil {
		r.tooLong = n
	}
}

// unexpected reports the character at the current offset, as encoding/json words it.
func (r *jsonReader) unexpected(context string) error {
	if r.off >= len(r.data) {
		return r.fail("unexpected end of JSON input")
	}
	c, _ := utf8.DecodeRune(r.data[r.off:])
	return r.fail("invalid character %s %s", quoteChar(c), context)
}

func quoteChar(c rune) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

// num reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?.
func (r *jsonReader) num() (text string, float bool, err error) {
	start := r.off
	d := r.data
	digits := func() int {
		j := r.off
		for r.off < len(d) && '0' <= d[r.off] && d[r.off] <= '9' {
			r.off++
		}
		return r.off - j
	}
	if d[r.off] == '-' {
		r.off++
	}
	switch {
	case r.off < len(d) && d[r.off] == '0':
		r.off++
	case digits() == 0:
		return "", false, r.unexpected("in numeric literal")
	}
	if r.off < len(d) && d[r.off] == '.' {
		float = true
		r.off++
		if digits() == 0 {
			return "", false, r.unexpected("after decimal point in numeric literal")
		}
	}
	if r.off < len(d) && (d[r.off] == 'e' || d[r.off] == 'E') {
		float = true
		r.off++
		if r.off < len(d) && (d[r.off] == '+' || d[r.off] == '-') {
			r.off++
		}
		if digits() == 0 {
			return "", false, r.unexpected("in exponent of numeric literal")
		}
	}
	return string(d[start:r.off]), float, nil
}

// str reads a string, decoding its escapes as encoding/json does.
func (r *jsonReader) str() (string, error) {
	d := r.data
	r.off++ // the opening quote
	start := r.off
	// Fast path: no escapes and valid UTF-8 up to the closing quote.
	for r.off < len(d) {
		c := d[r.off]
		if c == '"' {
			s := string(d[start:r.off])
			r.off++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		r.off++
	}
	b := append([]byte(nil), d[start:r.off]...)
	for r.off < len(d) {
		c := d[r.off]
		switch {
		case c == '"':
			r.off++
			return string(b), nil
		case c < 0x20:
			return "", r.unexpected("in string literal")
		case c == '\\':
			r.off++
			if r.off >= len(d) {
				return "", r.fail("unexpected end of JSON input")
			}
			switch e := d[r.off]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r.off++
				c1, ok := r.hex4()
				if !ok {
					return "", r.unexpected("in \\u hexadecimal character escape")
				}
				if utf16.IsSurrogate(c1) {
					// A pair is two escapes; anything else leaves a lone surrogate, which
					// encoding/json replaces.
					if r.off+1 < len(d) && d[r.off] == '\\' && d[r.off+1] == 'u' {
						save := r.off
						r.off += 2
						if c2, ok := r.hex4(); ok {
							if dec := utf16.DecodeRune(c1, c2); dec != utf8.RuneError {
								b = utf8.AppendRune(b, dec)
								continue
							}
						}
						r.off = save
					}
					c1 = utf8.RuneError
				}
				b = utf8.AppendRune(b, c1)
				continue
			default:
				return "", r.unexpected("in string escape code")
			}
			r.off++
		case c < utf8.RuneSelf:
			b = append(b, c)
			r.off++
		default:
			// Invalid UTF-8 becomes U+FFFD, as kubectl's reader makes it before
			// encoding/json sees the text: one for each maximal subpart.
			c, size := decodeRune(d[r.off:])
			b = utf8.AppendRune(b, c)
			r.off += size
		}
	}
	return "", r.fail("unexpected end of JSON input")
}

// hex4 reads four hexadecimal digits.
func (r *jsonReader) hex4() (rune, bool) {
	if len(r.data)-r.off < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(r.data[r.off:r.off+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	r.off += 4
	return rune(v), true
}
