package resolve

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/workload"
)

// resourceEventHandler is the method set of client-go's cache.ResourceEventHandler.
type resourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

var _ resourceEventHandler = (*Store)(nil)

// deletedFinalStateUnknown has the shape of client-go's cache.DeletedFinalStateUnknown.
type deletedFinalStateUnknown struct {
	Key string
	Obj any
}

func TestStoreHandlers(t *testing.T) {
	s := NewStore(cpuSmall())
	gpu := gpuType()
	s.OnAdd(gpu, true)
	s.OnAdd("not an instance type", false)
	s.OnAdd(nil, false)
	s.OnAdd((*instancetype.InstanceType)(nil), false)
	if got, want := s.Catalog().Names(), []string{"cpusmall", instancetype.DefaultName, "gpu"}; !slices.Equal(got, want) {
		t.Fatalf("after OnAdd: Names() = %q; want %q", got, want)
	}

	gpu2 := gpuType()
	gpu2.Spec.NodeSelector = sel("pool", "gpu2")
	s.OnUpdate(gpu, gpu2)
	s.OnUpdate(gpu2, 42)
	if it, _ := s.Catalog().Get("gpu"); it != gpu2 {
		t.Fatal("after OnUpdate: Get(gpu) is not the new object")
	}

	custom := customDefault()
	s.OnAdd(custom, false)
	if it, _ := s.Catalog().Get(instancetype.DefaultName); it != custom || s.Catalog().IsBuiltIn(instancetype.DefaultName) {
		t.Fatal("a custom default did not override the built-in one")
	}

	before := s.Catalog()
	for _, junk := range []any{nil, 7, "gpu", deletedFinalStateUnknown{Key: "gpu"},
		deletedFinalStateUnknown{Key: "gpu", Obj: "gpu"}, (*deletedFinalStateUnknown)(nil),
		struct{ obj any }{gpu2}} {
		s.OnDelete(junk)
	}
	if s.Catalog() != before {
		t.Fatal("OnDelete of something else than an instance type changed the catalog")
	}

	s.OnDelete(deletedFinalStateUnknown{Key: "gpu", Obj: gpu2})
	s.OnDelete(&deletedFinalStateUnknown{Key: "cpusmall", Obj: cpuSmall()})
	if got, want := s.Catalog().Names(), []string{instancetype.DefaultName}; !slices.Equal(got, want) {
		t.Fatalf("after tombstone OnDelete: Names() = %q; want %q", got, want)
	}
	s.OnDelete(custom)
	if !s.Catalog().IsBuiltIn(instancetype.DefaultName) || s.Catalog().Len() != 1 {
		t.Fatal("deleting the custom default did not bring back the built-in one")
	}
	before = s.Catalog()
	s.Delete("absent")
	s.Delete(instancetype.DefaultName)
	if s.Catalog() != before {
		t.Fatal("deleting an absent type or the built-in default published a new catalog")
	}
}

func TestZeroStore(t *testing.T) {
	var s Store
	if c := s.Catalog(); c == nil || c.Len() != 1 || !c.IsBuiltIn(instancetype.DefaultName) {
		t.Fatal("zero Store: Catalog() is not the built-in default alone")
	}
	p, errs := s.Resolve(&workload.Workload{Kind: workload.ComputeJob}, nil, Options{})
	if len(errs) != 0 || p.InstanceType != instancetype.DefaultName || !p.BuiltIn {
		t.Fatalf("zero Store: Resolve = %+v, %v", p, errs)
	}
	s.Set(cpuSmall())
	s.Set(nil)
	s.Set(newType("", nil, nil, nil))
	if got := s.Catalog().Names(); !slices.Equal(got, []string{"cpusmall", instancetype.DefaultName}) {
		t.Fatalf("zero Store after Set: Names() = %q", got)
	}
}

// genType returns instance type name at generation gen: its selector, requests and
// limits all carry gen, so that a reader can tell a whole object from a torn one.
func genType(name string, gen int) *instancetype.InstanceType {
	g := strconv.Itoa(gen)
	return newType(name, sel("gen", g),
		rl("cpu", g+"m", "memory", g+"Mi"),
		rl("cpu", g+"m", "memory", g+"Mi"))
}

// checkGen fails unless it is a whole genType object and returns its generation.
func checkGen(t *testing.T, it *instancetype.InstanceType) int {
	g := it.Spec.NodeSelector["gen"]
	r := it.Spec.Resources
	if r.Requests["cpu"].String() != g+"m" || r.Limits["cpu"].String() != g+"m" ||
		r.Requests["memory"].String() != g+"Mi" || r.Limits["memory"].String() != g+"Mi" {
		t.Errorf("torn instance type %s: gen %s, resources %s / %s", it.Name, g, listText(r.Requests), listText(r.Limits))
	}
	gen, _ := strconv.Atoi(g)
	return gen
}

// TestStoreConcurrent runs writers that set and delete instance types (each its own
// names, with rising generations) against readers that resolve and inspect snapshots.
// Run it with -race. Readers check that every snapshot holds defaultinstancetype, is
// consistent with itself (Len, Names, Get agree), holds only whole objects, and that
// the generation of a name never goes back from one snapshot to a later one.
func TestStoreConcurrent(t *testing.T) {
	const (
		writers = 4
		names   = 40 // per writer
		rounds  = 300
		readers = 4
	)
	var initial []*instancetype.InstanceType
	for w := range writers {
		for n := range names {
			initial = append(initial, genType(fmt.Sprintf("w%d-%d", w, n), 0))
		}
	}
	s := NewStore(initial...)
	var done atomic.Bool
	var wg, readersWG sync.WaitGroup

	for w := range writers {
		wg.Go(func() {
			for gen := 1; gen <= rounds; gen++ {
				name := fmt.Sprintf("w%d-%d", w, gen%names)
				switch gen % 5 {
				case 0:
					s.Delete(name)
				case 1:
					s.OnDelete(deletedFinalStateUnknown{Key: name, Obj: genType(name, gen)})
				case 2:
					s.OnAdd(genType(name, gen), false)
				case 3:
					s.OnUpdate(nil, genType(name, gen))
				default:
					s.Set(genType(name, gen))
				}
				if w == 0 && gen%50 == 0 { // the default comes and goes too
					if gen%100 == 0 {
						s.Set(customDefault())
					} else {
						s.Delete(instancetype.DefaultName)
					}
				}
				if gen%16 == 0 {
					runtime.Gosched()
				}
			}
		})
	}

	for r := range readers {
		readersWG.Go(func() {
			seen := map[string]int{}
			ext := sel("zone", "west")
			for i := 0; !done.Load() || i < 100; i++ {
				c := s.Catalog()
				if c.Len() < 1 || c.Len() != len(c.Names()) {
					t.Errorf("snapshot Len() = %d with %d names", c.Len(), len(c.Names()))
					return
				}
				if _, ok := c.Get(instancetype.DefaultName); !ok {
					t.Error("snapshot without defaultinstancetype")
					return
				}
				name := fmt.Sprintf("w%d-%d", (r+i)%writers, i%names)
				if it, ok := c.Get(name); ok {
					gen := checkGen(t, it)
					if gen < seen[name] {
						t.Errorf("%s went back from generation %d to %d", name, seen[name], gen)
					}
					seen[name] = gen
				}
				if i%31 == 0 {
					for _, n := range c.Names() {
						if _, ok := c.Get(n); !ok {
							t.Errorf("Names() lists %q but Get does not find it", n)
						}
					}
				}
				p, errs := s.Resolve(&workload.Workload{Kind: workload.ComputeJob, InstanceType: name}, nil, Options{NodeSelector: ext})
				if len(errs) == 0 && (p.NodeSelector()["zone"] != "west" || p.NodeSelector()["gen"] == "") {
					t.Errorf("Resolve(%s) selector = %v", name, p.NodeSelector())
				}
				if _, errs := s.Resolve(&workload.Workload{Kind: workload.OnlineDeployment}, nil, Options{NodeSelector: ext}); len(errs) != 0 {
					t.Errorf("Resolve(default) = %v", errs)
				}
			}
		})
	}
	wg.Wait()
	done.Store(true)
	readersWG.Wait()

	// The final state is what the last write of each name says.
	c := s.Catalog()
	for w := range writers {
		for n := range names {
			name := fmt.Sprintf("w%d-%d", w, n)
			last := rounds - (rounds-n)%names // the last gen with gen%names == n
			it, ok := c.Get(name)
			deleted := last%5 == 0 || last%5 == 1
			if ok == deleted {
				t.Errorf("final %s present = %v; want %v (last gen %d)", name, ok, !deleted, last)
			}
			if ok && checkGen(t, it) != last {
				t.Errorf("final %s generation = %d; want %d", name, checkGen(t, it), last)
			}
		}
	}
	// Every 50th round of writer 0 deletes the default, every 100th sets a custom one.
	if got, want := c.IsBuiltIn(instancetype.DefaultName), rounds/50%2 == 1; got != want {
		t.Errorf("final default built-in = %v; want %v", got, want)
	}
}

// TestStoreInitialList checks that a long run of adds, as an informer's initial list
// delivers them, ends in the right catalog.
func TestStoreInitialList(t *testing.T) {
	var s Store
	const n = 10_000
	for i := range n {
		s.OnAdd(newType(fmt.Sprintf("type-%05d", i), nil, nil, nil), true)
	}
	c := s.Catalog()
	if c.Len() != n+1 || len(c.Names()) != n+1 || c.Names()[0] != instancetype.DefaultName || c.Names()[n] != "type-09999" {
		t.Fatalf("after %d adds: Len() = %d, %d names", n, c.Len(), len(c.Names()))
	}
}
