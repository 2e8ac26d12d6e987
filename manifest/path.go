package manifest

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A path is the field path of the node being decoded, built into a *field.Path only when
// a finding needs it: a field path costs an allocation per segment, and most nodes have no
// finding. Paths live on the stack of the walk, each pointing to its parent's.
type path struct {
	up   *path
	base *field.Path // of the root: where the object sits in its document
	name string      // a field name or a map key
	i    int         // a list index
	kind pathKind
}

type pathKind uint8

const (
	pathRoot pathKind = iota
	pathField
	pathKey
	pathIndex
)

// root returns the path of an object at base in its document.
func root(base *field.Path) path { return path{base: base} }

func (p *path) child(name string) path { return path{up: p, name: name, kind: pathField} }
func (p *path) key(key string) path    { return path{up: p, name: key, kind: pathKey} }
func (p *path) index(i int) path       { return path{up: p, i: i, kind: pathIndex} }

// build returns the path as a *field.Path. It allocates.
func (p *path) build() *field.Path {
	switch {
	case p == nil:
		return nil
	case p.kind == pathRoot:
		return p.base
	case p.kind == pathField:
		return p.up.build().Child(p.name)
	case p.kind == pathKey:
		return p.up.build().Key(p.name)
	}
	return p.up.build().Index(p.i)
}

// String returns the path as field.Path.String renders it, building no *field.Path: it
// allocates the string only.
func (p *path) String() string {
	var buf [128]byte
	return string(p.appendTo(buf[:0]))
}

// appendTo appends the path, as field.Path.String renders it, to b.
func (p *path) appendTo(b []byte) []byte {
	switch {
	case p == nil || p.kind == pathRoot && p.base == nil:
		return append(b, "<nil>"...)
	case p.kind == pathRoot:
		return append(b, p.base.String()...)
	}
	// A document's root is no segment: the path then starts at p.
	parent := p.up.kind != pathRoot || p.up.base != nil
	if parent {
		b = p.up.appendTo(b)
	}
	switch {
	case p.kind == pathField && p.name != "":
		if parent {
			b = append(b, '.')
		}
		return append(b, p.name...)
	case p.kind == pathIndex:
		return append(strconv.AppendInt(append(b, '['), int64(p.i), 10), ']')
	}
	// A key, or a field of no name, which field.Path renders as an empty key.
	return append(append(append(b, '['), p.name...), ']')
}
