package resolve

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/workload"
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

	dropped atomic.Uint64              // events the handlers could not use
	onDrop  atomic.Pointer[func(Drop)] // called with each of them, if set
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
func (s *Store) Resolve(w *workload.Workload, fldPath *field.Path, opts Options) (Placement, field.ErrorList) {
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

// OnAdd handles an informer's add event: the instance type obj is [Store.Set]. obj is an
// *instancetype.InstanceType, as a typed informer delivers it, or an
// *unstructured.Unstructured of apiVersion amlarc.azureml.com/v1alpha1 and kind
// InstanceType, as a dynamic informer does, converted with
// runtime.DefaultUnstructuredConverter. Anything else, an object that does not convert
// (a value of the wrong type, possible only where the cluster's CRD has no schema) and an
// instance type without a name, is dropped: counted in [Store.Dropped] and handed to the
// [Store.SetDropHandler] hook, never ignored silently.
//
// With the method set of client-go's cache.ResourceEventHandler, a Store can be
// registered on an informer directly:
//
//	informer.AddEventHandler(store)
func (s *Store) OnAdd(obj any, isInInitialList bool) {
	s.set(EventAdd, obj)
}

// OnUpdate handles an informer's update event: newObj, of the kinds [Store.OnAdd] takes,
// is [Store.Set]. An update the store cannot use is dropped as OnAdd drops one, and the
// store keeps the last version of that instance type it could use.
func (s *Store) OnUpdate(oldObj, newObj any) {
	s.set(EventUpdate, newObj)
}

// OnDelete handles an informer's delete event: the instance type is [Store.Delete]d by
// name. obj is of the kinds [Store.OnAdd] takes, or a tombstone holding one: client-go's
// cache.DeletedFinalStateUnknown (a struct with an Obj field), which informers deliver
// when they missed the deletion. Only the name is needed, so an unstructured object is
// deleted even if its values would not convert. Anything else, such as a tombstone
// holding no instance type, is dropped as [Store.OnAdd] drops it.
//
// client-go's tombstone has no methods, so no interface can recognise it and this
// package cannot name it without importing client-go; OnDelete therefore reads the Obj
// field of a struct (or pointer to one) through reflection, on this rare path only.
func (s *Store) OnDelete(obj any) {
	name, err := deletedName(obj)
	if err != nil {
		s.drop(EventDelete, obj, err)
		return
	}
	s.Delete(name)
}

// The events of a [Drop].
const (
	EventAdd    = "add"
	EventUpdate = "update"
	EventDelete = "delete"
)

// Errors of a [Drop], which wrap them.
var (
	// ErrNotInstanceType: the object is not an instance type: another Go type, or an
	// unstructured object of another apiVersion or kind.
	ErrNotInstanceType = errors.New("resolve: not an amlarc.azureml.com/v1alpha1 InstanceType")
	// ErrNoName: the instance type has no metadata.name.
	ErrNoName = errors.New("resolve: instance type without a name")
	// ErrConvert: an unstructured instance type did not convert to an
	// instancetype.InstanceType (a resource value that is neither a string nor a number,
	// say); the error wraps the converter's too.
	ErrConvert = errors.New("resolve: unstructured instance type does not convert")
)

// Drop is an informer event that a [Store] could not use.
type Drop struct {
	// Event is EventAdd, EventUpdate or EventDelete.
	Event string
	// Obj is the object as the informer delivered it (the new one of an update).
	Obj any
	// Err says why, wrapping ErrNotInstanceType, ErrNoName or ErrConvert.
	Err error
}

// Dropped returns how many informer events the store's handlers have dropped since it
// was made: events whose object was not a usable instance type. A controller can export
// it as a metric; anything but 0 means the cache and the store disagree.
func (s *Store) Dropped() uint64 { return s.dropped.Load() }

// SetDropHandler sets f to be called with every event the store's handlers drop, on the
// informer's goroutine, after [Store.Dropped] counts it; nil removes the handler. f must
// not block for long, as it holds up the informer. It may be set at any time, from any
// goroutine.
func (s *Store) SetDropHandler(f func(Drop)) {
	if f == nil {
		s.onDrop.Store(nil)
		return
	}
	s.onDrop.Store(&f)
}

// set handles an add or update event.
func (s *Store) set(event string, obj any) {
	it, err := instanceTypeOf(obj)
	if err == nil && it.Name == "" {
		err = ErrNoName
	}
	if err != nil {
		s.drop(event, obj, err)
		return
	}
	s.Set(it)
}

// drop counts and reports an event the store cannot use.
func (s *Store) drop(event string, obj any, err error) {
	s.dropped.Add(1)
	if f := s.onDrop.Load(); f != nil {
		(*f)(Drop{Event: event, Obj: obj, Err: err})
	}
}

// instanceTypeOf returns the instance type of an add or update event's object.
func instanceTypeOf(obj any) (*instancetype.InstanceType, error) {
	switch o := obj.(type) {
	case *instancetype.InstanceType:
		if o == nil {
			return nil, fmt.Errorf("%w: a nil *instancetype.InstanceType", ErrNotInstanceType)
		}
		return o, nil
	case *unstructured.Unstructured:
		if err := checkKind(o); err != nil {
			return nil, err
		}
		it := new(instancetype.InstanceType)
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, it); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrConvert, o.GetName(), err)
		}
		return it, nil
	}
	return nil, fmt.Errorf("%w: a %T", ErrNotInstanceType, obj)
}

// checkKind reports an unstructured object that is not an InstanceType of this API's
// group version (or is nil).
func checkKind(u *unstructured.Unstructured) error {
	if u == nil || u.Object == nil {
		return fmt.Errorf("%w: a nil *unstructured.Unstructured", ErrNotInstanceType)
	}
	if u.GetAPIVersion() != instancetype.APIVersion || u.GetKind() != instancetype.Kind {
		return fmt.Errorf("%w: apiVersion %q, kind %q", ErrNotInstanceType, u.GetAPIVersion(), u.GetKind())
	}
	return nil
}

// deletedName returns the name of the instance type of a delete event.
func deletedName(obj any) (string, error) {
	switch o := obj.(type) {
	case *instancetype.InstanceType, *unstructured.Unstructured:
		return nameOf(o)
	case nil:
		return "", fmt.Errorf("%w: nil", ErrNotInstanceType)
	}
	v := reflect.ValueOf(obj)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "", fmt.Errorf("%w: a nil %T", ErrNotInstanceType, obj)
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", fmt.Errorf("%w: a %T", ErrNotInstanceType, obj)
	}
	f := v.FieldByName("Obj")
	if !f.IsValid() || !f.CanInterface() {
		return "", fmt.Errorf("%w: a %T", ErrNotInstanceType, obj)
	}
	switch o := f.Interface().(type) {
	case *instancetype.InstanceType, *unstructured.Unstructured:
		return nameOf(o)
	}
	return "", fmt.Errorf("%w: a %T holding a %T", ErrNotInstanceType, obj, f.Interface())
}

// nameOf returns the name of a typed or unstructured instance type.
func nameOf(obj any) (string, error) {
	var name string
	switch o := obj.(type) {
	case *instancetype.InstanceType:
		if o == nil {
			return "", fmt.Errorf("%w: a nil *instancetype.InstanceType", ErrNotInstanceType)
		}
		name = o.Name
	case *unstructured.Unstructured:
		if err := checkKind(o); err != nil {
			return "", err
		}
		name = o.GetName()
	}
	if name == "" {
		return "", ErrNoName
	}
	return name, nil
}
