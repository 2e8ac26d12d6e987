package resolve

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/workload"
)

// Sinks keep the compiler from optimising benchmarked calls away.
var (
	placementSink    Placement
	refPlacementSink refPlacement
	errsSink         field.ErrorList
	typeSink         *instancetype.InstanceType
	errSink          error
)

// benchCatalogTypes returns n instance types: type-0000 ... (n-1 of them, so that with the
// default the catalog holds n), each with the resources of cpusmall. Types 0 to 8 are in
// every catalog of at least 10, which is what the benchmarks resolve.
func benchCatalogTypes(n int) []*instancetype.InstanceType {
	types := make([]*instancetype.InstanceType, 0, n-1)
	for i := range n - 1 {
		it := cpuSmall()
		it.Name = fmt.Sprintf("type-%04d", i)
		if i%2 == 1 {
			it.Spec.NodeSelector = sel("pool", "p"+strconv.Itoa(i))
		}
		types = append(types, it)
	}
	return types
}

// benchWorkloads are deployments shaped like examples/deployment_resources.yaml, naming
// types 0 to 8 in turn, half of which have a node selector.
func benchWorkloads() []*workload.Workload {
	ws := make([]*workload.Workload, 9)
	for i := range ws {
		ws[i] = &workload.Workload{Kind: workload.OnlineDeployment, Name: "blue", InstanceType: fmt.Sprintf("type-%04d", i),
			Resources: &instancetype.ResourceRequirements{
				Requests: rl("cpu", "0.1", "memory", "0.2Gi"),
				Limits:   rl("cpu", "0.2", "memory", "0.5Gi"),
			}}
	}
	return ws
}

// BenchmarkResolve resolves the deployments above against catalogs of 10 and 10,000 types,
// with no extension selector (no allocation, and the same cost whatever the size of the
// catalog) and with one that must be merged with the selector of the half of the types that
// have one (merge), each beside the apimachinery way of doing the same (refResolve below):
// impl=ours is this package, impl=apimachinery the reference. "parallel" resolves from many
// goroutines against a Store of 10,000 types, beside refStore, a map behind a
// sync.RWMutex. "parallel-writing" (ours alone) does so while a writer keeps replacing
// instance types (its B/op counts the writer's allocations, spread over the reads; the
// readers allocate nothing, as TestResolveAllocs checks). On two cores the writer takes one
// of them.
func BenchmarkResolve(b *testing.B) {
	ws, rws := benchWorkloads(), refWorkloads()
	ext := sel("zone", "west")
	for _, n := range []int{10, 10_000} {
		c, m := NewCatalog(benchCatalogTypes(n)...), refCatalog(n)
		for _, mode := range []struct {
			name string
			ext  map[string]string
		}{{"catalog=" + strconv.Itoa(n), nil}, {"merge/catalog=" + strconv.Itoa(n), ext}} {
			b.Run(mode.name+"/impl=ours", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					placementSink, errsSink = Resolve(c, ws[i%len(ws)], nil, Options{NodeSelector: mode.ext})
				}
			})
			b.Run(mode.name+"/impl=apimachinery", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					refPlacementSink, errsSink = refResolve(m, rws[i%len(rws)], mode.ext, nil)
				}
			})
		}
	}
	s := NewStore(benchCatalogTypes(10_000)...)
	b.Run("parallel/catalog=10000/impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var p Placement
			for i := 0; pb.Next(); i++ {
				p, _ = s.Resolve(ws[i%len(ws)], nil, Options{})
			}
			_ = p
		})
	})
	refs := &refStore{types: refCatalog(10_000)}
	b.Run("parallel/catalog=10000/impl=apimachinery", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var p refPlacement
			for i := 0; pb.Next(); i++ {
				p, _ = refs.resolve(rws[i%len(rws)], nil)
			}
			_ = p
		})
	})
	b.Run("parallel-writing/catalog=10000", func(b *testing.B) {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			// Two generations of the same names, set in turn, so every Set publishes.
			gens := [2][]*instancetype.InstanceType{benchCatalogTypes(10), benchCatalogTypes(10)}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				g := gens[i/len(gens[0])%2]
				s.Set(g[i%len(g)])
			}
		}()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var p Placement
			for i := 0; pb.Next(); i++ {
				p, _ = s.Resolve(ws[i%len(ws)], nil, Options{})
			}
			_ = p
		})
		b.StopTimer()
		close(stop)
		<-done
	})
}

// BenchmarkCatalogLookup looks names up in catalogs of 10 and 10,000 types: a hit is a
// map lookup; a miss builds the error and its suggestions, one pass over the names.
func BenchmarkCatalogLookup(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		c := NewCatalog(benchCatalogTypes(n)...)
		b.Run("hit/catalog="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				typeSink, errSink = c.Lookup("type-0005")
			}
		})
		b.Run("miss/catalog="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				typeSink, errSink = c.Lookup("type-00x5")
			}
		})
	}
}

// BenchmarkNewCatalog builds a catalog of 10,000 types: what a Store write would cost if
// it copied the whole catalog.
func BenchmarkNewCatalog(b *testing.B) {
	types := benchCatalogTypes(10_000)
	b.ReportAllocs()
	for b.Loop() {
		_ = NewCatalog(types...)
	}
}

// BenchmarkStoreSet replaces instance types of Stores of 10 and 10,000 with new objects:
// the amortised cost of a copy-on-write publication, O(√n).
func BenchmarkStoreSet(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run("catalog="+strconv.Itoa(n), func(b *testing.B) {
			s := NewStore(benchCatalogTypes(n)...)
			// Two generations of the same names, set in turn, so every Set changes the
			// catalog.
			gens := [2][]*instancetype.InstanceType{benchCatalogTypes(n), benchCatalogTypes(n)}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				g := gens[i/len(gens[0])%2]
				s.Set(g[i%len(g)])
			}
		})
	}
}

// TestResolveAllocs guards the allocation promises of Resolve and Catalog.
func TestResolveAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are measured in full runs only")
	}
	big := NewCatalog(benchCatalogTypes(10_000)...)
	small := NewCatalog(benchCatalogTypes(10)...)
	store := NewStore(benchCatalogTypes(10_000)...)
	own := benchWorkloads()[0] // own resources, type without selector
	withSel := &workload.Workload{Kind: workload.ComputeJob, InstanceType: "type-0001"}
	def := &workload.Workload{Kind: workload.OnlineDeployment}
	ext := sel("zone", "west")
	typeSel := sel("pool", "p1")

	tests := []struct {
		name string
		want float64
		f    func()
	}{
		{"default, no selectors", 0, func() { placementSink, errsSink = Resolve(nil, def, nil, Options{}) }},
		{"own resources, catalog=10", 0, func() { placementSink, errsSink = Resolve(small, own, nil, Options{}) }},
		{"own resources, catalog=10000", 0, func() { placementSink, errsSink = Resolve(big, own, nil, Options{}) }},
		{"own resources, extension selector", 0, func() { placementSink, errsSink = Resolve(big, own, nil, Options{NodeSelector: ext}) }},
		{"type selector only", 0, func() { placementSink, errsSink = Resolve(big, withSel, nil, Options{}) }},
		{"type selector within the extension's", 0, func() { placementSink, errsSink = Resolve(big, withSel, nil, Options{NodeSelector: typeSel}) }},
		{"both selectors", 0, func() { placementSink, errsSink = Resolve(big, withSel, nil, Options{NodeSelector: ext}) }},
		{"store", 0, func() { placementSink, errsSink = store.Resolve(own, nil, Options{NodeSelector: ext}) }},
		{"store catalog", 0, func() { _ = store.Catalog() }},
		{"get", 0, func() { typeSink, _ = big.Get("type-0005") }},
		{"lookup hit", 0, func() { typeSink, errSink = big.Lookup("type-0005") }},
		{"names (shared)", 0, func() { _ = big.names() }},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, tt.f); got != tt.want {
			t.Errorf("%s: %v allocations; want %v", tt.name, got, tt.want)
		}
	}
}

// The apimachinery way, beside which BenchmarkResolve measures this package: it resolves
// workloads as a controller would with apimachinery alone. It holds each instance type's
// requests and limits as resource.Quantity maps (what a corev1.ResourceList is; k8s.io/api
// itself is not a dependency of this module), keeps the catalog in a map behind a
// sync.RWMutex, checks the selectors with labels.Conflicts and merges them with
// labels.Merge (only when both are set, as a careful author would), and compares limits
// with resource.Quantity.Cmp. Field paths are built only for errors, as this package does.
// The rules applied are this package's (R6, R7, R9), without the did-you-mean of an unknown
// name. TestSameOutcome checks that both agree on the benchmarked inputs.

// refType is an instance type as an apimachinery-only controller holds it.
type refType struct {
	name             string
	nodeSelector     map[string]string
	requests, limits map[string]resource.Quantity
}

// refWorkload is a deployment: the instance type it names and its own resources, nil
// when it has no resources section.
type refWorkload struct {
	instanceType     string
	requests, limits map[string]resource.Quantity
}

type refPlacement struct {
	instanceType     string
	nodeSelector     map[string]string
	requests, limits map[string]resource.Quantity
}

// refResolve is resolve.Resolve written with apimachinery: R6 (the type exists, default
// when none is named), R7 (selectors do not conflict; their union), R9 (limits within the
// type's; requests within the effective limits, the deployment's own completed from the
// type's).
func refResolve(catalog map[string]*refType, w *refWorkload, extension map[string]string, fldPath *field.Path) (refPlacement, field.ErrorList) {
	name := w.instanceType
	if name == "" {
		name = instancetype.DefaultName
	}
	p := refPlacement{instanceType: name, nodeSelector: extension, requests: w.requests, limits: w.limits}
	var errs field.ErrorList
	t, ok := catalog[name]
	if !ok {
		return p, append(errs, field.NotFound(fldPath.Child("instance_type"), name))
	}
	switch {
	case labels.Conflicts(extension, t.nodeSelector):
		errs = append(errs, field.Invalid(fldPath.Child("instance_type"), name, "node selector conflicts with the extension's"))
	case len(extension) == 0:
		p.nodeSelector = t.nodeSelector
	case len(t.nodeSelector) > 0:
		p.nodeSelector = labels.Merge(extension, t.nodeSelector)
	}
	if w.requests == nil && w.limits == nil {
		p.requests, p.limits = t.requests, t.limits
		return p, errs
	}
	for res := range t.limits {
		if _, ok := w.limits[res]; !ok {
			// The deployment's limits, completed from the type's.
			p.limits = make(map[string]resource.Quantity, len(t.limits)+len(w.limits))
			maps.Copy(p.limits, t.limits)
			maps.Copy(p.limits, w.limits)
			break
		}
	}
	for res, l := range w.limits {
		tl, ok := t.limits[res]
		switch {
		case ok && l.Cmp(tl) > 0:
			errs = append(errs, field.Invalid(fldPath.Child("resources", "limits").Key(res), l.String(), "must be less than or equal to the instance type's limit of "+tl.String()))
		case !ok && strings.Contains(res, "/") && l.Sign() > 0:
			errs = append(errs, field.Invalid(fldPath.Child("resources", "limits").Key(res), l.String(), "the instance type provides none"))
		}
	}
	for res, r := range w.requests {
		l, ok := p.limits[res]
		if !ok {
			l, ok = t.limits[res]
		}
		if ok && r.Cmp(l) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("resources", "requests").Key(res), r.String(), "must be less than or equal to the limit of "+l.String()))
		}
	}
	return p, errs
}

// refStore is the catalog of an apimachinery-only controller: a map behind a read-write
// lock, written by informer handlers, read by every resolver.
type refStore struct {
	mu    sync.RWMutex
	types map[string]*refType
}

func (s *refStore) resolve(w *refWorkload, extension map[string]string) (refPlacement, field.ErrorList) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return refResolve(s.types, w, extension, nil)
}

// refCatalog is the catalog of benchCatalogTypes(n) as an apimachinery-only controller
// holds it, with the built-in default.
func refCatalog(n int) map[string]*refType {
	m := make(map[string]*refType, n)
	m[instancetype.DefaultName] = &refType{name: instancetype.DefaultName,
		requests: quantities("cpu", "100m", "memory", "2Gi"), limits: quantities("cpu", "2", "memory", "2Gi")}
	for _, it := range benchCatalogTypes(n) {
		m[it.Name] = &refType{name: it.Name, nodeSelector: it.Spec.NodeSelector,
			requests: quantities("cpu", "100m", "memory", "100Mi"),
			limits:   quantities("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "0")}
	}
	return m
}

// refWorkloads are benchWorkloads as apimachinery quantities.
func refWorkloads() []*refWorkload {
	ws := make([]*refWorkload, 9)
	for i := range ws {
		ws[i] = &refWorkload{instanceType: fmt.Sprintf("type-%04d", i),
			requests: quantities("cpu", "0.1", "memory", "0.2Gi"),
			limits:   quantities("cpu", "0.2", "memory", "0.5Gi")}
	}
	return ws
}

func quantities(kv ...string) map[string]resource.Quantity {
	m := make(map[string]resource.Quantity, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = resource.MustParse(kv[i+1])
	}
	return m
}

// TestSameOutcome checks that both ways agree on the benchmarked inputs, and on a few
// broken ones, so that the benchmark compares like with like.
func TestSameOutcome(t *testing.T) {
	c, m := NewCatalog(benchCatalogTypes(10)...), refCatalog(10)
	ws, rws := benchWorkloads(), refWorkloads()
	over := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "type-0001", Resources: &instancetype.ResourceRequirements{
		Requests: instancetype.ResourceList{"cpu": instancetype.MustParseAmount("2")},
		Limits:   instancetype.ResourceList{"cpu": instancetype.MustParseAmount("2"), "nvidia.com/gpu": instancetype.MustParseAmount("1"), "amd.com/gpu": instancetype.MustParseAmount("1")},
	}}
	ws = append(ws, over, &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "nope"}, &workload.Workload{Kind: workload.OnlineDeployment})
	rws = append(rws, &refWorkload{instanceType: "type-0001", requests: quantities("cpu", "2"), limits: quantities("cpu", "2", "nvidia.com/gpu", "1", "amd.com/gpu", "1")},
		&refWorkload{instanceType: "nope"}, &refWorkload{})
	for _, ext := range []map[string]string{nil, {"zone": "west"}, {"pool": "p1"}, {"pool": "other"}} {
		for i := range ws {
			p, errs := Resolve(c, ws[i], nil, Options{NodeSelector: ext})
			rp, rerrs := refResolve(m, rws[i], ext, nil)
			if p.InstanceType != rp.instanceType || labels.Set(p.NodeSelector()).String() != labels.Set(rp.nodeSelector).String() ||
				len(p.Requests()) != len(rp.requests) || len(p.Limits()) != len(rp.limits) {
				t.Errorf("workload %d, extension %v: resolve gives %v %v %d %d, apimachinery %v %v %d %d", i, ext,
					p.InstanceType, p.NodeSelector(), len(p.Requests()), len(p.Limits()), rp.instanceType, rp.nodeSelector, len(rp.requests), len(rp.limits))
			}
			if errFields(errs) != errFields(rerrs) {
				t.Errorf("workload %d, extension %v: resolve finds %s; apimachinery %s", i, ext, errFields(errs), errFields(rerrs))
			}
		}
	}
}

// errFields lists the type and field of each error, sorted.
func errFields(errs field.ErrorList) string {
	var s []string
	for _, e := range errs {
		s = append(s, string(e.Type)+" "+e.Field)
	}
	slices.Sort(s)
	return strings.Join(s, ", ")
}
