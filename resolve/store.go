package resolve

import (
	"reflect"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// Store holds the current catalog of a controller, kept up to date by informer events
// while any number of goroutines resolve against it.
//
// Every change publishes a new immutable [Catalog] snapshot behind an atomic pointer.
// Readers ([Store.Catalog], [Store.Resolve]) never lock and never wait for writers, and
// always see a whole snapshot: one that holds defaultinstancetype and every instance type
// as it was given, never a half-applied change. Writers ([Store.Set], [Store.Delete] and
// the event handlers) are serialised by a mutex.
//
// A write does not copy the whole catalog: it copies a small set of changes layered over
// a shared base, and folds the changes into a new base once they outnumber the square
// root of its size. A write thus costs O(√n) amortised for a catalog of n types (an
// initial list of 10,000 adds costs about a million map operations in all, not fifty
// million), and a lookup at most two map lookups. [Catalog.Names] of a snapshot with
// pending changes is merged on first use, in O(n).
//
// The Store keeps the instance types it is given without copying them, as informers share
// theirs: they must not be modified afterwards; give a new object to change one.
//
// The zero Store is ready to use and holds the built-in default alone. A Store must not
// be copied after first use.
type Store struct {
	mu  sync.Mutex // serialises writers
	cur atomic.Pointer[Catalog]
}

// NewStore returns a store whose first catalog is NewCatalog(types...).
func NewStore(types ...*instancetype.InstanceType) *Store {
	s := &Store{}
	s.cur.Store(NewCatalog(types...))
	return s
}

// Catalog returns the current snapshot. It never blocks and does not allocate. The
// snapshot does not change: later writes publish new ones.
func (s *Store) Catalog() *Catalog {
	if c := s.cur.Load(); c != nil {
		return c
	}
	return builtinCatalog
}

// Resolve resolves w against the current snapshot: Resolve(s.Catalog(), w, fldPath, opts).
// Like Resolve, it allocates nothing on success, and its errors stay short whatever the
// input.
func (s *Store) Resolve(w *Workload, fldPath *field.Path, opts Options) (Placement, field.ErrorList) {
	return Resolve(s.Catalog(), w, fldPath, opts)
}

// Set adds the instance type it, or replaces the one of the same name. A custom
// instance type named instancetype.DefaultName overrides the built-in one. A nil type or
// one without a name is ignored.
func (s *Store) Set(it *instancetype.InstanceType) {
	if it == nil || it.Name == "" {
		return
	}
	s.update(it.Name, it)
}

// Delete removes the instance type of the given name, if any. Deleting
// instancetype.DefaultName brings back the built-in definition: the catalog always holds
// it.
func (s *Store) Delete(name string) {
	s.update(name, nil)
}

// update publishes the current catalog with name set to it, or removed when it is nil.
func (s *Store) update(name string, it *instancetype.InstanceType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.Catalog()
	if next := cur.with(name, it); next != cur {
		s.cur.Store(next)
	}
}

// OnAdd handles an informer's add event: an *instancetype.InstanceType is [Store.Set].
// Anything else is ignored. With the method set of client-go's
// cache.ResourceEventHandler, a Store can be registered on an informer directly:
//
//	informer.AddEventHandler(store)
func (s *Store) OnAdd(obj any, isInInitialList bool) {
	if it, ok := obj.(*instancetype.InstanceType); ok {
		s.Set(it)
	}
}

// OnUpdate handles an informer's update event: newObj, an *instancetype.InstanceType, is
// [Store.Set]. Anything else is ignored.
func (s *Store) OnUpdate(oldObj, newObj any) {
	if it, ok := newObj.(*instancetype.InstanceType); ok {
		s.Set(it)
	}
}

// OnDelete handles an informer's delete event: the instance type is [Store.Delete]d by
// name. obj is an *instancetype.InstanceType or a tombstone holding one: client-go's
// cache.DeletedFinalStateUnknown (a struct with an Obj field), which informers deliver
// when they missed the deletion. Anything else, such as a tombstone holding no instance
// type, is ignored.
//
// client-go's tombstone has no methods, so no interface can recognise it and this
// package cannot name it without importing client-go; OnDelete therefore reads the Obj
// field of a struct (or pointer to one) through reflection, on this rare path only.
func (s *Store) OnDelete(obj any) {
	if it := deletedInstanceType(obj); it != nil {
		s.Delete(it.Name)
	}
}

// deletedInstanceType returns the instance type of a delete event, or nil.
func deletedInstanceType(obj any) *instancetype.InstanceType {
	switch o := obj.(type) {
	case *instancetype.InstanceType:
		return o
	case nil:
		return nil
	}
	v := reflect.ValueOf(obj)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("Obj")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	it, _ := f.Interface().(*instancetype.InstanceType)
	return it
}
