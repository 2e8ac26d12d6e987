package resolve

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/workload"
)

// The properties of resolution, written once and run both as tests and as fuzz targets.
// Amounts are compared with apimachinery, the slow obvious reference, not with package
// quantity.

// amountGen draws an amount: mostly valid quantities in the units instance types use,
// sometimes unset or invalid ones, which resolution must skip.
var amountGen = rapid.Custom(func(t *rapid.T) instancetype.Amount {
	switch rapid.IntRange(0, 9).Draw(t, "shape") {
	case 0:
		return instancetype.Amount{}
	case 1:
		return instancetype.ParseAmount(rapid.SampledFrom([]string{"", "x", "2Gx", "1e", "--1"}).Draw(t, "invalid"))
	}
	n := rapid.IntRange(0, 4096).Draw(t, "n")
	suffix := rapid.SampledFrom([]string{"", "m", "Mi", "Gi", "M", "G", "k"}).Draw(t, "suffix")
	return instancetype.ParseAmount(strconv.Itoa(n) + suffix)
})

var resourceNameGen = rapid.SampledFrom([]instancetype.ResourceName{
	"cpu", "memory", "nvidia.com/gpu", "amd.com/gpu", "gpu",
})

var resourceListGen = rapid.MapOfN(resourceNameGen, amountGen, 0, 5)

var selectorGen = rapid.MapOfN(
	rapid.SampledFrom([]string{"pool", "zone", "accelerator", "kubernetes.io/os"}),
	rapid.SampledFrom([]string{"a", "b", "c"}), 0, 4)

// scenario is one random resolution: a catalog of a few types, a workload, an extension.
type scenario struct {
	catalog   *Catalog
	types     []*instancetype.InstanceType
	w         *workload.Workload
	extension map[string]string
}

func drawScenario(t *rapid.T) scenario {
	var types []*instancetype.InstanceType
	for range rapid.IntRange(0, 3).Draw(t, "types") {
		name := rapid.SampledFrom([]string{"a", "b", instancetype.DefaultName}).Draw(t, "name")
		types = append(types, newType(name, selectorGen.Draw(t, "selector"),
			resourceListGen.Draw(t, "type requests"), resourceListGen.Draw(t, "type limits")))
	}
	w := &workload.Workload{
		Kind:         rapid.SampledFrom([]workload.Kind{workload.OnlineDeployment, workload.ComputeJob}).Draw(t, "kind"),
		InstanceType: rapid.SampledFrom([]string{"", "a", "b", "c", instancetype.DefaultName}).Draw(t, "instance type"),
	}
	if rapid.Bool().Draw(t, "has resources") {
		w.Resources = &instancetype.ResourceRequirements{
			Requests: resourceListGen.Draw(t, "requests"),
			Limits:   resourceListGen.Draw(t, "limits"),
		}
	}
	return scenario{NewCatalog(types...), types, w, selectorGen.Draw(t, "extension")}
}

// cmpAmounts compares two valid amounts with apimachinery.
func cmpAmounts(a, b instancetype.Amount) int {
	x, y := resource.MustParse(a.String()), resource.MustParse(b.String())
	return x.Cmp(y)
}

// propLimitsWithinType: a placement resolved without errors never has a limit above the
// instance type's limit of the same resource, nor a positive extended resource the type
// does not provide, nor a request above its effective limit.
func propLimitsWithinType(t *rapid.T) {
	s := drawScenario(t)
	p, errs := Resolve(s.catalog, s.w, nil, Options{NodeSelector: s.extension})
	if len(errs) > 0 {
		return
	}
	it, ok := s.catalog.Get(p.InstanceType)
	if !ok {
		t.Fatalf("Resolve succeeded with unknown instance type %q", p.InstanceType)
	}
	typeLimits := it.Spec.Resources.Limits
	for name, l := range p.Limits() {
		tl, set := typeLimits[name]
		switch {
		case !rules.Usable(name, l):
		case rules.Usable(name, tl):
			if cmpAmounts(l, tl) > 0 {
				t.Fatalf("limit %s=%s above the type's %s", name, l, tl)
			}
		case !set || !tl.IsSet():
			if q := resource.MustParse(l.String()); strings.Contains(string(name), "/") && q.Sign() > 0 {
				t.Fatalf("limit %s=%s that the type does not provide", name, l)
			}
		}
	}
	if s.w.Resources == nil || s.w.Kind == workload.ComputeJob {
		return // the type's own resources: their consistency is validate's business
	}
	for name, r := range p.Requests() {
		l := p.Limit(name)
		if rules.Usable(name, r) && rules.Usable(name, l) && cmpAmounts(r, l) > 0 {
			t.Fatalf("request %s=%s above the limit %s", name, r, l)
		}
	}
}

// propLimitsComplete: the effective limits of a deployment with a resources section are
// its own, completed from the instance type's: they hold every limit the type sets, and
// the section's own where it sets one.
func propLimitsComplete(t *rapid.T) {
	s := drawScenario(t)
	if s.w.Resources == nil || s.w.Kind == workload.ComputeJob {
		return
	}
	p, _ := Resolve(s.catalog, s.w, nil, Options{NodeSelector: s.extension})
	it, ok := s.catalog.Get(p.InstanceType)
	if !ok {
		return
	}
	limits := p.Limits()
	for name, tl := range it.Spec.Resources.Limits {
		if own := s.w.Resources.Limits[name]; own.IsSet() {
			if limits[name] != own {
				t.Fatalf("limit %s = %q; want the section's own %q", name, limits[name], own)
			}
		} else if limits[name] != tl {
			t.Fatalf("limit %s = %q; want the type's %q", name, limits[name], tl)
		}
		if limits[name] != p.Limit(name) {
			t.Fatalf("Limits()[%s] = %q but Limit(%s) = %q", name, limits[name], name, p.Limit(name))
		}
	}
}

// propErrorsAreJustified: every limit above the type's, and every request above its
// effective limit, is reported at its field.
func propErrorsAreJustified(t *rapid.T) {
	s := drawScenario(t)
	_, errs := Resolve(s.catalog, s.w, nil, Options{NodeSelector: s.extension})
	it, ok := s.catalog.Get(s.w.InstanceType)
	if s.w.InstanceType == "" {
		it, ok = s.catalog.Get(instancetype.DefaultName)
	}
	if !ok || s.w.Resources == nil || s.w.Kind == workload.ComputeJob || len(s.w.Resources.Limits) == 0 {
		return
	}
	reported := map[string]bool{}
	for _, e := range errs {
		reported[e.Field] = true
	}
	for name, l := range s.w.Resources.Limits {
		tl := it.Spec.Resources.Limits[name]
		if rules.Usable(name, l) && rules.Usable(name, tl) && cmpAmounts(l, tl) > 0 && !reported["resources.limits["+string(name)+"]"] {
			t.Fatalf("limit %s=%s above the type's %s not reported: %v", name, l, tl, errs)
		}
	}
}

// propSelectorContainsExtension: the placement's selector always holds the extension's,
// errors or not; without errors it is exactly the union of the extension's and the
// type's.
func propSelectorContainsExtension(t *rapid.T) {
	s := drawScenario(t)
	p, errs := Resolve(s.catalog, s.w, nil, Options{NodeSelector: s.extension})
	if !selector.IsSubset(s.extension, p.NodeSelector()) {
		t.Fatalf("selector %v does not contain the extension's %v", p.NodeSelector(), s.extension)
	}
	if len(errs) > 0 {
		return
	}
	it, _ := s.catalog.Get(p.InstanceType)
	union := maps.Clone(s.extension)
	if union == nil {
		union = map[string]string{}
	}
	maps.Copy(union, it.Spec.NodeSelector)
	if !maps.Equal(union, p.NodeSelector()) {
		t.Fatalf("selector %v; want the union %v", p.NodeSelector(), union)
	}
}

// propNoSectionGetsTheType: a workload with no resources section gets exactly the
// instance type's resources, and no resource error.
func propNoSectionGetsTheType(t *rapid.T) {
	s := drawScenario(t)
	s.w.Resources = nil
	p, errs := Resolve(s.catalog, s.w, nil, Options{NodeSelector: s.extension})
	it, ok := s.catalog.Get(p.InstanceType)
	if !ok {
		return
	}
	if !maps.Equal(p.Requests(), it.Spec.Resources.Requests) || !maps.Equal(p.Limits(), it.Spec.Resources.Limits) {
		t.Fatalf("resources %s / %s; want the type's %s / %s", listText(p.Requests()), listText(p.Limits()),
			listText(it.Spec.Resources.Requests), listText(it.Spec.Resources.Limits))
	}
	for _, e := range errs {
		if strings.HasPrefix(e.Field, "resources.limits") || strings.HasPrefix(e.Field, "resources.requests") {
			t.Fatalf("resource error without a resources section: %v", e)
		}
	}
}

func TestPropLimitsWithinType(t *testing.T)          { rapid.Check(t, propLimitsWithinType) }
func TestPropErrorsAreJustified(t *testing.T)        { rapid.Check(t, propErrorsAreJustified) }
func TestPropLimitsComplete(t *testing.T)            { rapid.Check(t, propLimitsComplete) }
func TestPropSelectorContainsExtension(t *testing.T) { rapid.Check(t, propSelectorContainsExtension) }
func TestPropNoSectionGetsTheType(t *testing.T)      { rapid.Check(t, propNoSectionGetsTheType) }

func FuzzPropLimitsWithinType(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propLimitsWithinType)) }
func FuzzPropErrorsAreJustified(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propErrorsAreJustified)) }
func FuzzPropSelectorContainsExtension(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propSelectorContainsExtension))
}
func FuzzPropNoSectionGetsTheType(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propNoSectionGetsTheType)) }
