package validate

import "k8s.io/apimachinery/pkg/util/validation/field"

// at is a field path that is not built yet: base followed by the field names of one of
// the fixed paths below.
//
// A *field.Path costs an allocation per segment, and a valid object must validate without
// allocating, so validators pass an at (two words and a slice header, no copies of
// strings) by value and call path only when they report an error.
type at struct {
	base  *field.Path
	names []string // one of the package-level paths below; never modified
}

// The paths of the fields this package reports on, below an object's root.
var (
	pathMetadataName     = []string{"metadata", "name"}
	pathMetadataLabels   = []string{"metadata", "labels"}
	pathSpecNodeSelector = []string{"spec", "nodeSelector"}
	pathSpecLimits       = []string{"spec", "resources", "limits"}
	pathSpecRequests     = []string{"spec", "resources", "requests"}
	pathLimits           = []string{"resources", "limits"}   // of a deployment
	pathRequests         = []string{"resources", "requests"} // of a deployment
)

// path builds the path. It allocates.
func (a at) path() *field.Path {
	p := a.base
	for _, name := range a.names {
		p = p.Child(name)
	}
	return p
}

// key builds the path of the map entry key below a: path()[key].
func (a at) key(key string) *field.Path { return a.path().Key(key) }
