package resolve

import (
	"iter"
	"slices"
	"sync/atomic"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
)

// builtinDefault is the built-in defaultinstancetype every catalog starts from. It is
// shared by all catalogs and never modified.
var builtinDefault = instancetype.Default()

// builtinCatalog is the catalog of the built-in default alone, which a nil *Catalog and an
// empty Store stand for.
var builtinCatalog = NewCatalog()

// Catalog is an immutable set of instance types, keyed by name, that always holds
// instancetype.DefaultName. It is safe for concurrent use.
//
// A nil *Catalog behaves as the catalog of the built-in default alone.
//
// The instance types a catalog returns are shared with every other caller, and with
// whoever gave them to [NewCatalog] or [Store.Set]: they must not be modified.
type Catalog struct {
	// base and delta together map each name to its instance type: delta overrides base,
	// and a nil value in delta removes the name. Neither map is modified once the catalog
	// is published; base may be shared by many snapshots of a Store. Catalogs made by
	// NewCatalog have no delta.
	base  map[string]*instancetype.InstanceType
	delta map[string]*instancetype.InstanceType

	// baseNames is the sorted names of base.
	baseNames []string
	// merged caches names() of a catalog with a delta; nil until first asked for.
	merged atomic.Pointer[[]string]
	// index caches the index of offered() that suggestions walk; nil until a name is
	// missed.
	index atomic.Pointer[textdist.Index]
	// valid caches offered(); nil until first asked for.
	valid atomic.Pointer[[]string]

	// def is the effective defaultinstancetype, never nil.
	def *instancetype.InstanceType
	// n is the number of names.
	n int
}

// NewCatalog returns the catalog of the built-in defaultinstancetype and the given
// instance types.
//
// A type named instancetype.DefaultName overrides the built-in one. When several types
// share a name the last one wins (package validate reports the duplicates). Nil types and
// types without a name are left out: no workload can name them. The catalog keeps the
// pointers it is given, without copying: the caller must not modify the types afterwards.
func NewCatalog(types ...*instancetype.InstanceType) *Catalog {
	base := make(map[string]*instancetype.InstanceType, len(types)+1)
	base[instancetype.DefaultName] = builtinDefault
	for _, it := range types {
		if it == nil || it.Name == "" {
			continue
		}
		base[it.Name] = it
	}
	return newBaseCatalog(base)
}

// newBaseCatalog returns the catalog of base, which it takes over.
func newBaseCatalog(base map[string]*instancetype.InstanceType) *Catalog {
	names := make([]string, 0, len(base))
	for name := range base {
		names = append(names, name)
	}
	slices.Sort(names)
	return &Catalog{
		base:      base,
		baseNames: names,
		def:       base[instancetype.DefaultName],
		n:         len(base),
	}
}

// orBuiltin returns c, or the built-in catalog for a nil c.
func (c *Catalog) orBuiltin() *Catalog {
	if c == nil {
		return builtinCatalog
	}
	return c
}

// Get returns the instance type of the given name and true, or nil and false if the
// catalog has none. It costs a map lookup or two, whatever the size of the catalog, and
// does not allocate.
//
// The instance type returned is shared: it must not be modified.
func (c *Catalog) Get(name string) (*instancetype.InstanceType, bool) {
	c = c.orBuiltin()
	if name == instancetype.DefaultName {
		return c.def, true
	}
	if c.delta != nil {
		if it, ok := c.delta[name]; ok {
			return it, it != nil
		}
	}
	it, ok := c.base[name]
	return it, ok
}

// Lookup is like [Catalog.Get] but reports a missing name as a *[NotFoundError] that
// names the close matches, or the known names when none is close.
func (c *Catalog) Lookup(name string) (*instancetype.InstanceType, error) {
	if it, ok := c.Get(name); ok {
		return it, nil
	}
	return nil, c.notFound(name)
}

// notFound returns the error for a name the catalog lacks.
func (c *Catalog) notFound(name string) *NotFoundError {
	return &NotFoundError{Name: name, Suggestions: suggest(name, c.nameIndex()), Available: slices.Clone(c.offered())}
}

// nameIndex returns the index of the catalog's names that a workload can name (offered), built on first use, which finds the
// names close to one the catalog lacks without comparing it with each.
func (c *Catalog) nameIndex() *textdist.Index {
	c = c.orBuiltin()
	if x := c.index.Load(); x != nil {
		return x
	}
	// As for names: concurrent callers may each build it, the first to publish wins.
	x := textdist.NewIndex(c.offered())
	if c.index.CompareAndSwap(nil, x) {
		return x
	}
	return c.index.Load()
}

// offered returns the names of the catalog that a workload can name, sorted: those that
// are object names. An InstanceType of another name (Tiny_Type), which the API server
// refuses, is in the catalog, but no finding offers it as a known name or a suggestion.
// The slice is computed once and shared (it is names() itself when every name is valid):
// it must not be modified.
func (c *Catalog) offered() []string {
	c = c.orBuiltin()
	if p := c.valid.Load(); p != nil {
		return *p
	}
	names := c.names()
	out := names
	for i, n := range names {
		if !rules.IsObjectName(n) {
			out = append(make([]string, 0, len(names)-1), names[:i]...)
			for _, n := range names[i+1:] {
				if rules.IsObjectName(n) {
					out = append(out, n)
				}
			}
			break
		}
	}
	// As for names: concurrent callers may each filter, the first to publish wins.
	if c.valid.CompareAndSwap(nil, &out) {
		return out
	}
	return *c.valid.Load()
}

// Names returns the names of the instance types of the catalog, sorted, the default's
// included, in a new slice.
func (c *Catalog) Names() []string { return slices.Clone(c.names()) }

// names returns the names of the instance types of the catalog, sorted. The slice is
// computed once and shared: it must not be modified.
func (c *Catalog) names() []string {
	c = c.orBuiltin()
	if c.delta == nil {
		return c.baseNames
	}
	if p := c.merged.Load(); p != nil {
		return *p
	}
	// Concurrent callers may each merge; the first to publish wins, and all of them
	// return equal slices. Nobody waits.
	names := mergeNames(c.baseNames, c.base, c.delta)
	if c.merged.CompareAndSwap(nil, &names) {
		return names
	}
	return *c.merged.Load()
}

// mergeNames returns the sorted names of base with delta applied, given baseNames, the
// sorted names of base.
func mergeNames(baseNames []string, base, delta map[string]*instancetype.InstanceType) []string {
	var added []string
	removed := 0
	for name, it := range delta {
		_, inBase := base[name]
		switch {
		case it != nil && !inBase:
			added = append(added, name)
		case it == nil && inBase:
			removed++
		}
	}
	slices.Sort(added)
	names := make([]string, 0, len(baseNames)+len(added)-removed)
	i := 0
	for _, name := range baseNames {
		if it, ok := delta[name]; ok && it == nil {
			continue
		}
		for i < len(added) && added[i] < name {
			names = append(names, added[i])
			i++
		}
		names = append(names, name)
	}
	return append(names, added[i:]...)
}

// IsBuiltIn reports whether name is instancetype.DefaultName and the catalog holds the
// built-in definition of it, not a custom override.
func (c *Catalog) IsBuiltIn(name string) bool {
	return name == instancetype.DefaultName && c.orBuiltin().def == builtinDefault
}

// Len returns the number of instance types in the catalog, the default included: at
// least 1.
func (c *Catalog) Len() int { return c.orBuiltin().n }

// All returns an iterator over the instance types of the catalog in the order of their
// names. The instance types are shared: they must not be modified.
func (c *Catalog) All() iter.Seq[*instancetype.InstanceType] {
	return func(yield func(*instancetype.InstanceType) bool) {
		for _, name := range c.names() {
			it, _ := c.Get(name)
			if !yield(it) {
				return
			}
		}
	}
}

// with returns the catalog c with the instance type of the given name set to it, or
// removed when it is nil (which for instancetype.DefaultName brings back the built-in
// definition). It returns c itself when nothing changes.
//
// The change goes into a copy of c's delta, which costs O(len(delta)); once the delta
// outgrows the square root of the base, both are folded into a new base, which costs
// O(n). A run of writes thus costs O(√n) each, amortised, instead of the O(n) of copying
// the whole catalog on every write.
func (c *Catalog) with(name string, it *instancetype.InstanceType) *Catalog {
	c = c.orBuiltin()
	if name == instancetype.DefaultName && it == nil {
		it = builtinDefault
	}
	old, had := c.Get(name)
	if it == old || (it == nil && !had) {
		return c
	}
	n := c.n
	switch {
	case it != nil && !had:
		n++
	case it == nil:
		n--
	}
	delta := make(map[string]*instancetype.InstanceType, len(c.delta)+1)
	for k, v := range c.delta {
		delta[k] = v
	}
	if bv, inBase := c.base[name]; (it == nil && !inBase) || (inBase && bv == it) {
		delete(delta, name) // back to what the base says: no need to record it
	} else {
		delta[name] = it
	}
	if len(delta)*len(delta) > len(c.base) && len(delta) > minDelta {
		base := make(map[string]*instancetype.InstanceType, n)
		for k, v := range c.base {
			base[k] = v
		}
		for k, v := range delta {
			if v == nil {
				delete(base, k)
			} else {
				base[k] = v
			}
		}
		return &Catalog{
			base:      base,
			baseNames: mergeNames(c.baseNames, c.base, delta),
			def:       base[instancetype.DefaultName],
			n:         n,
		}
	}
	def := c.def
	if name == instancetype.DefaultName {
		def = it
	}
	if len(delta) == 0 {
		delta = nil // back to the base alone
	}
	return &Catalog{base: c.base, delta: delta, baseNames: c.baseNames, def: def, n: n}
}

// minDelta is the size up to which a delta is never folded into the base.
const minDelta = 16
