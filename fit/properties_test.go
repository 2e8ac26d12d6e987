package fit_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/quantity"
)

// The generators draw clusters shaped like real ones — a few pools whose nodes share
// labels, capacity and taints, and a hostname each — with odd nodes mixed in (no labels,
// no status, duplicate or empty names, zero amounts), and demands that select on those
// labels, on hostnames, and on labels no node has.

var (
	genPool   = rapid.SampledFrom([]string{"system", "cpu", "gpu", "mem"})
	genZone   = rapid.SampledFrom([]string{"1", "2", "3"})
	genAccel  = rapid.SampledFrom([]string{"", "v100", "t4"}) // "": no accelerator label
	genCPU    = rapid.SampledFrom([]string{"", "0", "500m", "2", "3860m", "16"})
	genMemory = rapid.SampledFrom([]string{"", "0", "1Gi", "4Gi", "12Gi", "64Gi", "1073741824"})
	genGPU    = rapid.SampledFrom([]string{"", "", "0", "1", "4"})
	genFPGA   = rapid.SampledFrom([]string{"", "", "", "2"})
	// genToleration tolerates some of genTaint's taints, by key, value or effect, or all.
	genToleration = rapid.SampledFrom([]cluster.Toleration{
		{Key: "sku", Value: "gpu"},
		{Key: "sku", Value: "cpu"},
		{Key: "sku", Value: "gpu", Effect: cluster.NoExecute},
		{Key: "dedicated", Exists: true, Effect: cluster.NoExecute},
		{Key: "node.kubernetes.io/not-ready", Exists: true},
		{Exists: true, Effect: cluster.NoSchedule},
		{Exists: true},
	})
	genTaint = rapid.SampledFrom([]cluster.Taint{
		{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule},
		{Key: "dedicated", Value: "ml", Effect: cluster.NoExecute},
		{Key: "node.kubernetes.io/not-ready", Effect: cluster.NoExecute},
		{Key: "spot", Value: "true", Effect: cluster.PreferNoSchedule},
		{Key: "odd", Value: "x", Effect: "Bogus"},
	})
)

// hostname returns the name of node i; draws make some names collide or go missing.
func hostname(i int) string { return fmt.Sprintf("n%02d", i) }

func genNode(i int) *rapid.Generator[cluster.Node] {
	return rapid.Custom(func(t *rapid.T) cluster.Node {
		x := cluster.Node{Name: hostname(i)}
		switch rapid.IntRange(0, 19).Draw(t, "nameKind") {
		case 0:
			x.Name = "" // nameless
		case 1:
			x.Name = hostname(rapid.IntRange(0, i).Draw(t, "duplicateOf"))
		}
		if rapid.IntRange(0, 19).Draw(t, "noLabels") > 0 {
			x.Labels = map[string]string{
				"agentpool":              genPool.Draw(t, "pool"),
				"zone":                   genZone.Draw(t, "zone"),
				"kubernetes.io/hostname": x.Name,
			}
			if a := genAccel.Draw(t, "accelerator"); a != "" {
				x.Labels["accelerator"] = a
			}
			if rapid.Bool().Draw(t, "racked") { // racks and rows: labels a few nodes share
				x.Labels["rack"] = fmt.Sprintf("r%d", rapid.IntRange(0, 39).Draw(t, "rack"))
				x.Labels["row"] = fmt.Sprintf("w%d", rapid.IntRange(0, 19).Draw(t, "row"))
			}
		}
		if rapid.IntRange(0, 19).Draw(t, "noStatus") > 0 {
			x.Allocatable = map[instancetype.ResourceName]quantity.Quantity{}
			for name, g := range map[instancetype.ResourceName]*rapid.Generator[string]{
				"cpu": genCPU, "memory": genMemory, "nvidia.com/gpu": genGPU, "example.com/fpga": genFPGA,
			} {
				if s := g.Draw(t, string(name)); s != "" {
					x.Allocatable[name] = quantity.MustParse(s)
				}
			}
		}
		x.Taints = rapid.SliceOfN(genTaint, 0, 2).Draw(t, "taints")
		x.Unschedulable = rapid.IntRange(0, 7).Draw(t, "cordoned") == 0
		return x
	})
}

// genCluster draws a few nodes or, as often, between 33 and max. Past 32 nodes a label on
// fewer than a 32nd of them (a hostname, a rack, a row) is stored as a sorted list rather
// than a bitset, so both ways of intersecting are exercised.
func genCluster(max int) *rapid.Generator[[]cluster.Node] {
	return rapid.Custom(func(t *rapid.T) []cluster.Node {
		n := rapid.OneOf(rapid.IntRange(0, 12), rapid.IntRange(33, max)).Draw(t, "nodes")
		nodes := make([]cluster.Node, n)
		for i := range nodes {
			nodes[i] = genNode(i).Draw(t, fmt.Sprintf("node%d", i))
		}
		return nodes
	})
}

var genPair = rapid.Custom(func(t *rapid.T) fit.Pair {
	switch rapid.IntRange(0, 7).Draw(t, "pairKind") {
	case 6:
		return fit.Pair{Key: "rack", Value: fmt.Sprintf("r%d", rapid.IntRange(0, 39).Draw(t, "rack"))}
	case 7:
		return fit.Pair{Key: "row", Value: fmt.Sprintf("w%d", rapid.IntRange(0, 19).Draw(t, "row"))}
	case 0:
		return fit.Pair{Key: "agentpool", Value: genPool.Draw(t, "pool")}
	case 1:
		return fit.Pair{Key: "zone", Value: genZone.Draw(t, "zone")}
	case 2:
		return fit.Pair{Key: "accelerator", Value: rapid.SampledFrom([]string{"v100", "t4", "a100"}).Draw(t, "accel")}
	case 3:
		return fit.Pair{Key: "kubernetes.io/hostname", Value: hostname(rapid.IntRange(0, 70).Draw(t, "host"))}
	case 4:
		return fit.Pair{Key: "agentpool", Value: "gpupool"} // a value no node has
	}
	return fit.Pair{Key: "pool", Value: "gpu"} // a key no node has
})

var genRequest = rapid.SampledFrom([]struct {
	name instancetype.ResourceName
	q    string
}{
	{"cpu", "100m"}, {"cpu", "2"}, {"cpu", "4"}, {"cpu", "32"}, {"cpu", "0"},
	{"memory", "1Gi"}, {"memory", "8Gi"}, {"memory", "100Gi"}, {"memory", "1G"},
	{"nvidia.com/gpu", "1"}, {"nvidia.com/gpu", "2"}, {"nvidia.com/gpu", "0"},
	{"example.com/fpga", "1"}, {"example.com/none", "1"},
})

var genDemand = rapid.Custom(func(t *rapid.T) fit.Demand {
	var d fit.Demand
	if ps := rapid.SliceOfN(genPair, 0, 4).Draw(t, "selector"); len(ps) > 0 || rapid.Bool().Draw(t, "emptyMap") {
		d.NodeSelector = map[string]string{}
		for _, p := range ps {
			d.NodeSelector[p.Key] = p.Value
		}
	}
	d.Tolerations = rapid.SliceOfN(genToleration, 0, 2).Draw(t, "tolerations")
	for _, r := range rapid.SliceOfN(genRequest, 0, 4).Draw(t, "requests") {
		if d.Requests == nil {
			d.Requests = map[instancetype.ResourceName]quantity.Quantity{}
		}
		d.Requests[r.name] = quantity.MustParse(r.q)
	}
	return d
})

// checkAgreesWithNaive: the index gives exactly the naive scan's result, counts and
// explanations alike, and findings exactly when nothing fits, at the paths Errors promises.
func checkAgreesWithNaive(t *rapid.T) {
	nodes := genCluster(300).Draw(t, "cluster")
	d := genDemand.Draw(t, "demand")
	got := fit.NewIndex(nodes).Check(d)
	if want := newNaive(nodes).check(d); diffResults(got, want) != "" {
		t.Fatalf("index and naive scan disagree:%s", diffResults(got, want))
	}
	errs := got.Errors(selectorPath, requestPath)
	if (len(errs) == 0) != (got.Fits > 0) {
		t.Fatalf("Fits = %d but %d findings: %v", got.Fits, len(errs), errs)
	}
	for _, e := range errs {
		ok := e.Field == selectorPath.String()
		for name := range d.Requests {
			ok = ok || e.Field == requestPath(name).String()
		}
		if !ok {
			t.Fatalf("finding at %s, neither the selector nor a request: %v", e.Field, e)
		}
		if r, ok := lint.LookupRule(e.Origin); !ok || r.ID != "fit" {
			t.Fatalf("finding without the rule id fit (Origin %q): %v", e.Origin, e)
		}
	}
}

func TestCheckAgreesWithNaive(t *testing.T) { rapid.Check(t, checkAgreesWithNaive) }

// The same on large clusters and selectors holding a pair few nodes carry (a rack, a row,
// a hostname), which are stored as sorted lists: the walk of the shortest list, galloping
// through the others, and mixed list and bitset intersections.
func TestCheckAgreesWithNaiveOnSparseSelectors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(64, 400).Draw(t, "nodes")
		nodes := make([]cluster.Node, n)
		for i := range nodes {
			nodes[i] = genNode(i).Draw(t, fmt.Sprintf("node%d", i))
		}
		d := genDemand.Draw(t, "demand")
		if d.NodeSelector == nil {
			d.NodeSelector = map[string]string{}
		}
		for _, p := range rapid.SliceOfN(genSparsePair, 1, 2).Draw(t, "sparse") {
			d.NodeSelector[p.Key] = p.Value
		}
		if rapid.Bool().Draw(t, "rackAndRow") { // two lists, one walked, one galloped through
			d.NodeSelector["rack"] = fmt.Sprintf("r%d", rapid.IntRange(0, 39).Draw(t, "rack"))
			d.NodeSelector["row"] = fmt.Sprintf("w%d", rapid.IntRange(0, 19).Draw(t, "row"))
		}
		got := fit.NewIndex(nodes).Check(d)
		if want := newNaive(nodes).check(d); diffResults(got, want) != "" {
			t.Fatalf("index and naive scan disagree:%s", diffResults(got, want))
		}
	})
}

var genSparsePair = rapid.Custom(func(t *rapid.T) fit.Pair {
	switch rapid.IntRange(0, 2).Draw(t, "sparseKind") {
	case 0:
		return fit.Pair{Key: "rack", Value: fmt.Sprintf("r%d", rapid.IntRange(0, 39).Draw(t, "rack"))}
	case 1:
		return fit.Pair{Key: "row", Value: fmt.Sprintf("w%d", rapid.IntRange(0, 19).Draw(t, "row"))}
	}
	return fit.Pair{Key: "kubernetes.io/hostname", Value: hostname(rapid.IntRange(0, 400).Draw(t, "host"))}
})

func FuzzCheckAgreesWithNaive(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkAgreesWithNaive)) }

// withFreshNames renames the nodes apart, so that adding one adds a node rather than
// replacing one.
func withFreshNames(nodes []cluster.Node) []cluster.Node {
	out := slices.Clone(nodes)
	for i := range out {
		out[i].Name = fmt.Sprintf("%s-%d", out[i].Name, i)
	}
	return out
}

// Adding a node never makes a fitting demand stop fitting: no count of the result drops.
func TestAddingANodeNeverBreaksAFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := withFreshNames(genCluster(300).Draw(t, "cluster"))
		extra := genNode(99).Draw(t, "extra")
		extra.Name = "fresh"
		d := genDemand.Draw(t, "demand")
		before := fit.NewIndex(nodes).Check(d)
		after := fit.NewIndex(append(nodes, extra)).Check(d)
		b, a := countsOf(before), countsOf(after)
		if a.Matching < b.Matching || a.Candidates < b.Candidates || a.Fits < b.Fits || a.WouldFit < b.WouldFit {
			t.Fatalf("adding %+v: counts %+v became %+v", extra, b, a)
		}
		if before.Fits > 0 && len(after.Errors(selectorPath, requestPath)) > 0 {
			t.Fatalf("adding %+v made a fitting demand fail: %v", extra, after.Errors(selectorPath, requestPath))
		}
	})
}

// Raising a request, or asking for a new resource, never makes a demand fit more nodes; in
// particular a demand that fits no node still fits none.
func TestRaisingARequestNeverMakesAFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genCluster(300).Draw(t, "cluster")
		d := genDemand.Draw(t, "demand")
		r := genRequest.Draw(t, "raise")
		by := quantity.MustParse(rapid.SampledFrom([]string{"1m", "1", "1Gi", "64"}).Draw(t, "by"))
		raised := fit.Demand{NodeSelector: d.NodeSelector, Requests: maps.Clone(d.Requests), Tolerations: d.Tolerations}
		if raised.Requests == nil {
			raised.Requests = map[instancetype.ResourceName]quantity.Quantity{}
		}
		old := raised.Requests[r.name]
		if old.Sign() <= 0 {
			old = quantity.MustParse(r.q) // a new (or ignored) request is the raise
			by = quantity.Quantity{}
		}
		q, err := old.Add(by)
		if err != nil {
			t.Skip(err)
		}
		raised.Requests[r.name] = q
		ix := fit.NewIndex(nodes)
		before, after := ix.Check(d), ix.Check(raised)
		if after.Fits > before.Fits || after.WouldFit > before.WouldFit {
			t.Fatalf("raising %s to %v: Fits %d → %d, WouldFit %d → %d", r.name, q, before.Fits, after.Fits, before.WouldFit, after.WouldFit)
		}
		if after.Matching != before.Matching || after.Candidates != before.Candidates {
			t.Fatalf("raising a request changed which nodes match: %+v → %+v", countsOf(before), countsOf(after))
		}
	})
}

// Adding a pair to the selector never makes more nodes match.
func TestNarrowingTheSelectorNeverMatchesMore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genCluster(300).Draw(t, "cluster")
		d := genDemand.Draw(t, "demand")
		p := genPair.Draw(t, "pair")
		if _, ok := d.NodeSelector[p.Key]; ok {
			t.Skip("the pair replaces one")
		}
		narrow := fit.Demand{NodeSelector: maps.Clone(d.NodeSelector), Requests: d.Requests, Tolerations: d.Tolerations}
		if narrow.NodeSelector == nil {
			narrow.NodeSelector = map[string]string{}
		}
		narrow.NodeSelector[p.Key] = p.Value
		ix := fit.NewIndex(nodes)
		b, a := countsOf(ix.Check(d)), countsOf(ix.Check(narrow))
		if a.Matching > b.Matching || a.Candidates > b.Candidates || a.Fits > b.Fits {
			t.Fatalf("adding %v to the selector: %+v → %+v", p, b, a)
		}
	})
}

// The order of the nodes does not matter when their names are distinct.
func TestNodeOrderDoesNotMatter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := withFreshNames(genCluster(300).Draw(t, "cluster"))
		d := genDemand.Draw(t, "demand")
		shuffled := rapid.Permutation(nodes).Draw(t, "shuffled")
		a, b := fit.NewIndex(nodes).Check(d), fit.NewIndex(shuffled).Check(d)
		if diffResults(a, b) != "" {
			t.Fatalf("the order of the nodes changed the result:%s", diffResults(a, b))
		}
	})
}
