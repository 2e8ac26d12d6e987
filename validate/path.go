package validate

import "k8s.io/apimachinery/pkg/util/validation/field"

// at is a field path that is not built yet: base followed by up to three field names.
//
// A *field.Path costs an allocation per segment, and a valid object must validate without
// allocating, so validators pass an at by value and call path only when they report an
// error.
type at struct {
	base  *field.Path
	names [3]string
	n     int
}

// under returns the not-yet-built path base.names[0].names[1]….
func under(base *field.Path, names ...string) at {
	a := at{base: base}
	for _, name := range names {
		a = a.child(name)
	}
	return a
}

// child returns a extended by the field name. It panics if a already has three names,
// which no caller in this package does.
func (a at) child(name string) at {
	a.names[a.n] = name
	a.n++
	return a
}

// path builds the path. It allocates.
func (a at) path() *field.Path {
	p := a.base
	for _, name := range a.names[:a.n] {
		p = p.Child(name)
	}
	return p
}

// key builds the path of the map entry key below a: path()[key].
func (a at) key(key string) *field.Path { return a.path().Key(key) }
