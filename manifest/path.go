package manifest

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// pathStack is the field path of the node being decoded, relative to its document, kept by
// the decoder and reused for every node (as encoding/json keeps its error context's field
// stack): entering a field, a map key or a list item appends its segment to the path's text,
// leaving it truncates the text again. The text is the path as field.Path.String renders it,
// so that it keys the table of positions directly; a *field.Path is built from the segments
// only when a finding needs one.
type pathStack struct {
	text []byte
	segs []segment
	// refusedAt is, while a path whose value decoding refused is on the stack, the number
	// of segments of the shortest such path, plus one; 0 otherwise. What is recorded
	// below it is refused too (see inRefused).
	refusedAt int
}

// segment is one step of a path.
type segment struct {
	kind pathKind
	name string // a field name or a map key
	i    int    // a list index
	at   int    // the length of the text before the segment
}

type pathKind uint8

const (
	pathField pathKind = iota
	pathKey
	pathIndex
)

// field enters the field name.
func (s *pathStack) field(name string) { s.push(segment{kind: pathField, name: name}) }

// key enters the map key k.
func (s *pathStack) key(k string) { s.push(segment{kind: pathKey, name: k}) }

// index enters the list item i.
func (s *pathStack) index(i int) { s.push(segment{kind: pathIndex, i: i}) }

// entry enters the entry key of a mapping: a map key when keyed, else a field.
func (s *pathStack) entry(key string, keyed bool) {
	if keyed {
		s.key(key)
	} else {
		s.field(key)
	}
}

// push appends a segment as field.Path.String renders it: ".name" (or "name" first), and
// "[key]" or "[i]"; a field of no name renders as an empty key, "[]".
func (s *pathStack) push(g segment) {
	g.at = len(s.text)
	switch {
	case g.kind == pathIndex:
		s.text = append(strconv.AppendInt(append(s.text, '['), int64(g.i), 10), ']')
	case g.kind == pathField && g.name != "":
		if len(s.segs) > 0 {
			s.text = append(s.text, '.')
		}
		s.text = append(s.text, g.name...)
	default:
		s.text = append(append(append(s.text, '['), g.name...), ']')
	}
	s.segs = append(s.segs, g)
}

// pop leaves the last segment entered.
func (s *pathStack) pop() {
	g := s.segs[len(s.segs)-1]
	s.segs = s.segs[:len(s.segs)-1]
	s.text = s.text[:g.at]
	if len(s.segs)+1 < s.refusedAt { // the refused path is left
		s.refusedAt = 0
	}
}

// refuse marks the current path as one whose value decoding refused: it, and every path
// entered below it until it is left, is inRefused.
func (s *pathStack) refuse() {
	if s.refusedAt == 0 || len(s.segs)+1 < s.refusedAt {
		s.refusedAt = len(s.segs) + 1
	}
}

// inRefused reports whether the current path, or a path above it, was refused.
func (s *pathStack) inRefused() bool { return s.refusedAt != 0 }

// build returns the path as a *field.Path: nil for the document itself. It allocates.
func (s *pathStack) build() *field.Path {
	var p *field.Path
	for _, g := range s.segs {
		switch g.kind {
		case pathField:
			p = p.Child(g.name)
		case pathKey:
			p = p.Key(g.name)
		default:
			p = p.Index(g.i)
		}
	}
	return p
}

// String returns the path's text, as field.Path.String renders the built path ("" for the
// document itself, where field.Path renders a nil path "<nil>").
func (s *pathStack) String() string { return string(s.text) }
