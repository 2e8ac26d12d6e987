package resolve

import (
	"fmt"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// Sinks keep the compiler from optimising benchmarked calls away.
var (
	placementSink Placement
	errsSink      field.ErrorList
	typeSink      *instancetype.InstanceType
	errSink       error
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
func benchWorkloads() []*Workload {
	ws := make([]*Workload, 9)
	for i := range ws {
		ws[i] = &Workload{Kind: Deployment, Name: "blue", InstanceType: fmt.Sprintf("type-%04d", i),
			Resources: &instancetype.ResourceRequirements{
				Requests: rl("cpu", "0.1", "memory", "0.2Gi"),
				Limits:   rl("cpu", "0.2", "memory", "0.5Gi"),
			}}
	}
	return ws
}

// BenchmarkResolve resolves deployments with their own resources against catalogs of 10
// and 10,000 instance types, with no extension selector: no allocation, and the same cost
// whatever the size of the catalog. "merge" adds an extension selector that must be
// merged with a type's (one map allocated); "parallel" resolves from many goroutines
// against a Store of 10,000 types, and "parallel-writing" does so while a writer keeps
// replacing instance types (its B/op counts the writer's allocations, spread over the
// reads; the readers allocate nothing, as TestResolveAllocs checks). On two cores the
// writer takes one of them.
func BenchmarkResolve(b *testing.B) {
	ws := benchWorkloads()
	for _, n := range []int{10, 10_000} {
		c := NewCatalog(benchCatalogTypes(n)...)
		b.Run("catalog="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				placementSink, errsSink = Resolve(c, ws[i%len(ws)], nil, Options{})
			}
		})
	}
	b.Run("merge/catalog=10000", func(b *testing.B) {
		c := NewCatalog(benchCatalogTypes(10_000)...)
		ext := sel("zone", "west")
		w := ws[1] // type-0001 has a selector
		b.ReportAllocs()
		for b.Loop() {
			placementSink, errsSink = Resolve(c, w, nil, Options{NodeSelector: ext})
		}
	})
	s := NewStore(benchCatalogTypes(10_000)...)
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var p Placement
			for i := 0; pb.Next(); i++ {
				p, _ = s.Resolve(ws[i%len(ws)], nil, Options{})
			}
			_ = p
		})
	})
	b.Run("parallel-writing", func(b *testing.B) {
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
	withSel := &Workload{Kind: Job, InstanceType: "type-0001"}
	def := &Workload{Kind: Deployment}
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
