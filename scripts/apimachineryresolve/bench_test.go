package apimachineryresolve

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
	"github.com/amlarc-go/instancetypes/resolve"
)

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

// The inputs: catalogs of n types named type-0000 ... (n-1 of them plus the default, as in
// resolve's own benchmarks), each with cpusmall's resources (requests cpu 100m, memory
// 100Mi; limits cpu 1, memory 1Gi, nvidia.com/gpu 0), every other one with a node
// selector; and deployments shaped like examples/deployment_resources.yaml (requests cpu
// 0.1, memory 0.2Gi; limits cpu 0.2, memory 0.5Gi) naming types 0 to 8 in turn.

func typeName(i int) string { return fmt.Sprintf("type-%04d", i) }

func ours(n int) []*instancetype.InstanceType {
	types := make([]*instancetype.InstanceType, 0, n-1)
	for i := range n - 1 {
		it := &instancetype.InstanceType{}
		it.Name = typeName(i)
		if i%2 == 1 {
			it.Spec.NodeSelector = map[string]string{"pool": "p" + strconv.Itoa(i)}
		}
		it.Spec.Resources.Requests = instancetype.ResourceList{"cpu": instancetype.MustParseAmount("100m"), "memory": instancetype.MustParseAmount("100Mi")}
		it.Spec.Resources.Limits = instancetype.ResourceList{"cpu": instancetype.MustParseAmount("1"), "memory": instancetype.MustParseAmount("1Gi"), "nvidia.com/gpu": instancetype.MustParseAmount("0")}
		types = append(types, it)
	}
	return types
}

func quantities(kv ...string) map[string]resource.Quantity {
	m := make(map[string]resource.Quantity, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = resource.MustParse(kv[i+1])
	}
	return m
}

func theirs(n int) map[string]*refType {
	m := make(map[string]*refType, n)
	m[instancetype.DefaultName] = &refType{name: instancetype.DefaultName,
		requests: quantities("cpu", "100m", "memory", "2Gi"), limits: quantities("cpu", "2", "memory", "2Gi")}
	for _, it := range ours(n) {
		m[it.Name] = &refType{name: it.Name, nodeSelector: it.Spec.NodeSelector,
			requests: quantities("cpu", "100m", "memory", "100Mi"),
			limits:   quantities("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "0")}
	}
	return m
}

func ourWorkloads() []*resolve.Workload {
	ws := make([]*resolve.Workload, 9)
	for i := range ws {
		ws[i] = &resolve.Workload{Kind: resolve.Deployment, Name: "blue", InstanceType: typeName(i),
			Resources: &instancetype.ResourceRequirements{
				Requests: instancetype.ResourceList{"cpu": instancetype.MustParseAmount("0.1"), "memory": instancetype.MustParseAmount("0.2Gi")},
				Limits:   instancetype.ResourceList{"cpu": instancetype.MustParseAmount("0.2"), "memory": instancetype.MustParseAmount("0.5Gi")},
			}}
	}
	return ws
}

func theirWorkloads() []*refWorkload {
	ws := make([]*refWorkload, 9)
	for i := range ws {
		ws[i] = &refWorkload{instanceType: typeName(i),
			requests: quantities("cpu", "0.1", "memory", "0.2Gi"),
			limits:   quantities("cpu", "0.2", "memory", "0.5Gi")}
	}
	return ws
}

var (
	sinkPlacement    resolve.Placement
	sinkRefPlacement refPlacement
	sinkErrs         field.ErrorList
)

// BenchmarkResolve resolves the deployments against catalogs of 10 and 10,000 types, with
// no extension selector and with one (merge), and from parallel goroutines against a
// catalog of 10,000 shared by all (parallel: a resolve.Store against a map behind a
// sync.RWMutex). impl=resolve is package resolve, impl=apimachinery the way above.
func BenchmarkResolve(b *testing.B) {
	ws, rws := ourWorkloads(), theirWorkloads()
	ext := map[string]string{"zone": "west"}
	for _, n := range []int{10, 10_000} {
		c, m := resolve.NewCatalog(ours(n)...), theirs(n)
		for _, mode := range []struct {
			name string
			ext  map[string]string
		}{{"catalog=" + strconv.Itoa(n), nil}, {"merge/catalog=" + strconv.Itoa(n), ext}} {
			b.Run(mode.name+"/impl=resolve", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					sinkPlacement, sinkErrs = resolve.Resolve(c, ws[i%len(ws)], nil, resolve.Options{NodeSelector: mode.ext})
				}
			})
			b.Run(mode.name+"/impl=apimachinery", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					sinkRefPlacement, sinkErrs = refResolve(m, rws[i%len(rws)], mode.ext, nil)
				}
			})
		}
	}
	store := resolve.NewStore(ours(10_000)...)
	b.Run("parallel/catalog=10000/impl=resolve", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var p resolve.Placement
			for i := 0; pb.Next(); i++ {
				p, _ = store.Resolve(ws[i%len(ws)], nil, resolve.Options{})
			}
			_ = p
		})
	})
	refs := &refStore{types: theirs(10_000)}
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
}

// TestSameOutcome checks that both ways agree on the benchmarked inputs, and on a few
// broken ones, so that the benchmark compares like with like.
func TestSameOutcome(t *testing.T) {
	c, m := resolve.NewCatalog(ours(10)...), theirs(10)
	ws, rws := ourWorkloads(), theirWorkloads()
	over := &resolve.Workload{Kind: resolve.Deployment, InstanceType: typeName(1), Resources: &instancetype.ResourceRequirements{
		Requests: instancetype.ResourceList{"cpu": instancetype.MustParseAmount("2")},
		Limits:   instancetype.ResourceList{"cpu": instancetype.MustParseAmount("2"), "nvidia.com/gpu": instancetype.MustParseAmount("1"), "amd.com/gpu": instancetype.MustParseAmount("1")},
	}}
	ws = append(ws, over, &resolve.Workload{Kind: resolve.Deployment, InstanceType: "nope"}, &resolve.Workload{Kind: resolve.Deployment})
	rws = append(rws, &refWorkload{instanceType: typeName(1), requests: quantities("cpu", "2"), limits: quantities("cpu", "2", "nvidia.com/gpu", "1", "amd.com/gpu", "1")},
		&refWorkload{instanceType: "nope"}, &refWorkload{})
	for _, ext := range []map[string]string{nil, {"zone": "west"}, {"pool": "p1"}, {"pool": "other"}} {
		for i := range ws {
			p, errs := resolve.Resolve(c, ws[i], nil, resolve.Options{NodeSelector: ext})
			rp, rerrs := refResolve(m, rws[i], ext, nil)
			if p.InstanceType != rp.instanceType || labels.Set(p.NodeSelector()).String() != labels.Set(rp.nodeSelector).String() ||
				len(p.Requests()) != len(rp.requests) || len(p.Limits()) != len(rp.limits) {
				t.Errorf("workload %d, extension %v: resolve gives %v %v %d %d, apimachinery %v %v %d %d", i, ext,
					p.InstanceType, p.NodeSelector(), len(p.Requests()), len(p.Limits()), rp.instanceType, rp.nodeSelector, len(rp.requests), len(rp.limits))
			}
			if fields(errs) != fields(rerrs) {
				t.Errorf("workload %d, extension %v: resolve finds %s; apimachinery %s", i, ext, fields(errs), fields(rerrs))
			}
		}
	}
}

// fields lists the type and field of each error, sorted.
func fields(errs field.ErrorList) string {
	var s []string
	for _, e := range errs {
		s = append(s, string(e.Type)+" "+e.Field)
	}
	slices.Sort(s)
	return strings.Join(s, ", ")
}
