package validate_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// Generators of valid parts.
var (
	genObjectName = rapid.StringMatching(`[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?){0,3}`)
	genLabelKey   = rapid.StringMatching(`([a-z0-9]([-a-z0-9]{0,6}[a-z0-9])?(\.[a-z]{1,5}){0,2}/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?`)
	genLabelValue = rapid.StringMatching(`([A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?)?`)
	genSelector   = rapid.MapOfN(genLabelKey, genLabelValue, 0, 4)
	genRoot       = rapid.OneOf(rapid.Just[*field.Path](nil),
		rapid.Map(rapid.IntRange(0, 20), func(i int) *field.Path { return field.NewPath("items").Index(i) }))
)

// cpuText writes m millicores (m > 0) in one of the ways a manifest may.
func cpuText(t *rapid.T, label string, m int) string {
	forms := []string{fmt.Sprintf("%dm", m), fmt.Sprintf("%d.%03d", m/1000, m%1000), fmt.Sprintf("%de-3", m)}
	if m%1000 == 0 {
		forms = append(forms, fmt.Sprint(m/1000), fmt.Sprintf("%d000000u", m/1000))
	}
	return rapid.SampledFrom(forms).Draw(t, label)
}

// memoryText writes mi mebibytes (mi > 0) in one of the ways a manifest may.
func memoryText(t *rapid.T, label string, mi int) string {
	forms := []string{fmt.Sprintf("%dMi", mi), fmt.Sprintf("%dKi", mi*1024), fmt.Sprint(mi << 20), fmt.Sprintf("%de0", mi<<20)}
	if mi%1024 == 0 {
		forms = append(forms, fmt.Sprintf("%dGi", mi/1024))
	}
	return rapid.SampledFrom(forms).Draw(t, label)
}

// validCase is a valid instance type with the options it is valid under.
type validCase struct {
	it   *instancetype.InstanceType
	root *field.Path
	opts resolve.Options
	// The drawn sizes, for mutations.
	cpuLimit, memLimitMi int
}

func drawValid(t *rapid.T) validCase {
	cpuReq := rapid.IntRange(1, 64000).Draw(t, "cpuRequest")
	cpuLim := rapid.IntRange(cpuReq, 128000).Draw(t, "cpuLimit")
	memReq := rapid.IntRange(1, 1<<17).Draw(t, "memRequestMi")
	memLim := rapid.IntRange(memReq, 1<<18).Draw(t, "memLimitMi")
	it := &instancetype.InstanceType{
		ObjectMeta: metaName(genObjectName.Draw(t, "name")),
		Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{
				"cpu":    amount(cpuText(t, "cpuRequestText", cpuReq)),
				"memory": amount(memoryText(t, "memRequestText", memReq)),
			},
			Limits: instancetype.ResourceList{
				"cpu":    amount(cpuText(t, "cpuLimitText", cpuLim)),
				"memory": amount(memoryText(t, "memLimitText", memLim)),
			},
		}},
	}
	for _, gpu := range []instancetype.ResourceName{"nvidia.com/gpu", "amd.com/gpu"} {
		switch rapid.IntRange(0, 2).Draw(t, "has "+string(gpu)) {
		case 1:
			it.Spec.Resources.Limits[gpu] = null
		case 2:
			n := rapid.IntRange(0, 16).Draw(t, string(gpu))
			it.Spec.Resources.Limits[gpu] = amount(rapid.SampledFrom([]string{fmt.Sprint(n), fmt.Sprintf("%d000m", n)}).Draw(t, string(gpu)+" text"))
		}
	}
	if rapid.Bool().Draw(t, "null gpu request") {
		it.Spec.Resources.Requests["nvidia.com/gpu"] = null // null means none, even in requests
	}

	// The extension's selector, and the instance type's: a subset of it in strict mode,
	// else any selector that agrees with it where both set a key.
	opts := resolve.Options{StrictSubset: rapid.Bool().Draw(t, "strict")}
	if rapid.Bool().Draw(t, "has extension selector") {
		opts.NodeSelector = genSelector.Draw(t, "extension")
	}
	sel := map[string]string{}
	for k, v := range opts.NodeSelector {
		if rapid.Bool().Draw(t, "share "+k) {
			sel[k] = v
		}
	}
	if !opts.StrictSubset {
		for k, v := range genSelector.Draw(t, "own selector") {
			if _, clash := opts.NodeSelector[k]; !clash {
				sel[k] = v
			}
		}
	}
	if len(sel) > 0 || rapid.Bool().Draw(t, "empty selector") {
		it.Spec.NodeSelector = sel
	}
	return validCase{it: it, root: genRoot.Draw(t, "root"), opts: opts, cpuLimit: cpuLim, memLimitMi: memLim}
}

// Every generated valid instance type passes.
func TestPropertyValidPasses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawValid(t)
		if errs := validate.InstanceType(c.it, c.root, c.opts); errs != nil {
			t.Fatalf("InstanceType(%+v, %v, %+v) = %v; want nil", c.it, c.root, c.opts, errs)
		}
	})
}

// mutation changes a valid case in one way that breaks one rule, and says which finding
// (type, path below the root) must result.
type mutation struct {
	name  string
	apply func(t *rapid.T, c *validCase) (field.ErrorType, string)
}

var requiredFour = []struct{ list, name string }{
	{"limits", "cpu"}, {"limits", "memory"}, {"requests", "cpu"}, {"requests", "memory"},
}

func listOf(it *instancetype.InstanceType, list string) instancetype.ResourceList {
	if list == "limits" {
		return it.Spec.Resources.Limits
	}
	return it.Spec.Resources.Requests
}

func drawRequired(t *rapid.T, c *validCase) (instancetype.ResourceList, string) {
	r := rapid.SampledFrom(requiredFour).Draw(t, "field")
	return listOf(c.it, r.list), "spec.resources." + r.list + "[" + r.name + "]"
}

func pathKey(path string) instancetype.ResourceName {
	return instancetype.ResourceName(path[strings.IndexByte(path, '[')+1 : len(path)-1])
}

var mutations = []mutation{
	{"name missing", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Name = ""
		return field.ErrorTypeRequired, "metadata.name"
	}},
	{"name not a subdomain", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		bad := rapid.SampledFrom([]string{"_", "A", " ", "..", "/", "é", "-.", ".-"}).Draw(t, "bad")
		at := rapid.IntRange(0, len(c.it.Name)).Draw(t, "at")
		c.it.Name = c.it.Name[:at] + bad + c.it.Name[at:]
		return field.ErrorTypeInvalid, "metadata.name"
	}},
	{"name too long", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Name = strings.Repeat("a", rapid.IntRange(254, 1000).Draw(t, "len"))
		return field.ErrorTypeInvalid, "metadata.name"
	}},
	{"cpu or memory missing", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		l, path := drawRequired(t, c)
		delete(l, pathKey(path))
		return field.ErrorTypeRequired, path
	}},
	{"cpu or memory null", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		l, path := drawRequired(t, c)
		l[pathKey(path)] = null
		return field.ErrorTypeRequired, path
	}},
	{"cpu or memory not a quantity", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		l, path := drawRequired(t, c)
		l[pathKey(path)] = amount(rapid.SampledFrom([]string{"", " 1", "1x", "2Gx", "1Gb", "--1", "1.2.3", "1e", "one", "1 Gi", "1e400"}).Draw(t, "text"))
		return field.ErrorTypeInvalid, path
	}},
	{"cpu or memory not positive", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		l, path := drawRequired(t, c)
		l[pathKey(path)] = amount(rapid.SampledFrom([]string{"0", "0m", "0Gi", "-1", "-100m", "-0.5Gi", "0e3"}).Draw(t, "text"))
		return field.ErrorTypeInvalid, path
	}},
	{"cpu request above limit", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Requests["cpu"] = amount(fmt.Sprintf("%dm", c.cpuLimit+rapid.IntRange(1, 1000).Draw(t, "over")))
		return field.ErrorTypeInvalid, "spec.resources.requests[cpu]"
	}},
	{"memory request above limit", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Requests["memory"] = amount(fmt.Sprint(c.memLimitMi<<20 + rapid.IntRange(1, 1<<20).Draw(t, "over")))
		return field.ErrorTypeInvalid, "spec.resources.requests[memory]"
	}},
	{"gpu not a whole number", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Limits["nvidia.com/gpu"] = amount(rapid.SampledFrom([]string{"0.5", "1500m", "1.1", "1m", "2.000000001"}).Draw(t, "text"))
		return field.ErrorTypeInvalid, "spec.resources.limits[nvidia.com/gpu]"
	}},
	{"gpu negative", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Limits["amd.com/gpu"] = amount(fmt.Sprint(-rapid.IntRange(1, 8).Draw(t, "n")))
		return field.ErrorTypeInvalid, "spec.resources.limits[amd.com/gpu]"
	}},
	{"gpu not a quantity", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Limits["nvidia.com/gpu"] = amount(rapid.SampledFrom([]string{"", "one", "1x"}).Draw(t, "text"))
		return field.ErrorTypeInvalid, "spec.resources.limits[nvidia.com/gpu]"
	}},
	{"gpu in requests", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Spec.Resources.Requests["nvidia.com/gpu"] = amount(fmt.Sprint(rapid.IntRange(0, 8).Draw(t, "n")))
		return field.ErrorTypeForbidden, "spec.resources.requests[nvidia.com/gpu]"
	}},
	{"unknown resource name", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		r := rapid.SampledFrom(requiredFour).Draw(t, "list")
		name := rapid.SampledFrom([]string{"cpus", "gpu", "mem", "CPU", "Memory", "memroy", "ephemeral-storage", "hugepages-2Mi", ""}).Draw(t, "name")
		listOf(c.it, r.list)[instancetype.ResourceName(name)] = amount("1")
		return field.ErrorTypeNotSupported, "spec.resources." + r.list + "[" + name + "]"
	}},
	{"bad extended resource name", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		name := rapid.SampledFrom([]string{"NVIDIA.com/gpu", "/gpu", "nvidia.com/", "a/b/c", "kubernetes.io/gpu", "requests.nvidia.com/gpu", "nvidia.com/g pu"}).Draw(t, "name")
		c.it.Spec.Resources.Limits[instancetype.ResourceName(name)] = amount("1")
		return field.ErrorTypeInvalid, "spec.resources.limits[" + name + "]"
	}},
	{"bad label key", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		k := rapid.SampledFrom([]string{"", "-a", "a b", "Example.com/a", "a/b/c", "/a", strings.Repeat("k", 64)}).Draw(t, "key")
		c.opts.StrictSubset = false
		if c.it.Spec.NodeSelector == nil {
			c.it.Spec.NodeSelector = map[string]string{}
		}
		c.it.Spec.NodeSelector[k] = "v"
		delete(c.opts.NodeSelector, k)
		return field.ErrorTypeInvalid, "spec.nodeSelector[" + k + "]"
	}},
	{"bad label value", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		v := rapid.SampledFrom([]string{"-a", "a b", "a/b", "é", strings.Repeat("v", 64)}).Draw(t, "value")
		k := "zz-key"
		c.opts.StrictSubset = false
		if c.it.Spec.NodeSelector == nil {
			c.it.Spec.NodeSelector = map[string]string{}
		}
		c.it.Spec.NodeSelector[k] = v
		delete(c.opts.NodeSelector, k)
		return field.ErrorTypeInvalid, "spec.nodeSelector[" + k + "]"
	}},
	{"bad metadata label", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		c.it.Labels = map[string]string{"team": "a b"}
		return field.ErrorTypeInvalid, "metadata.labels[team]"
	}},
	{"conflict with the extension", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		k := genLabelKey.Draw(t, "key")
		if c.it.Spec.NodeSelector == nil {
			c.it.Spec.NodeSelector = map[string]string{}
		}
		c.it.Spec.NodeSelector[k] = "a"
		c.opts.NodeSelector = maps.Clone(c.opts.NodeSelector)
		if c.opts.NodeSelector == nil {
			c.opts.NodeSelector = map[string]string{}
		}
		c.opts.NodeSelector[k] = "b"
		return field.ErrorTypeInvalid, "spec.nodeSelector[" + k + "]"
	}},
	{"strict: key the extension lacks", func(t *rapid.T, c *validCase) (field.ErrorType, string) {
		k := genLabelKey.Draw(t, "key")
		if c.it.Spec.NodeSelector == nil {
			c.it.Spec.NodeSelector = map[string]string{}
		}
		c.it.Spec.NodeSelector[k] = "a"
		c.opts.StrictSubset = true
		for ek, ev := range c.opts.NodeSelector { // the rest stays a subset
			if _, ok := c.it.Spec.NodeSelector[ek]; ok && ek != k && c.it.Spec.NodeSelector[ek] != ev {
				delete(c.it.Spec.NodeSelector, ek)
			}
		}
		for tk, tv := range c.it.Spec.NodeSelector {
			if ev, ok := c.opts.NodeSelector[tk]; tk != k && (!ok || ev != tv) {
				delete(c.it.Spec.NodeSelector, tk)
			}
		}
		c.opts.NodeSelector = maps.Clone(c.opts.NodeSelector)
		delete(c.opts.NodeSelector, k)
		return field.ErrorTypeInvalid, "spec.nodeSelector[" + k + "]"
	}},
}

// Every single-rule mutation of a valid instance type is reported at its path, and
// nothing else is.
func TestPropertyMutationReported(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := drawValid(t)
		m := rapid.SampledFrom(mutations).Draw(t, "mutation")
		typ, path := m.apply(t, &c)
		if c.root != nil {
			path = c.root.String() + "." + path
		}
		errs := validate.InstanceType(c.it, c.root, c.opts)
		found := false
		for _, e := range errs {
			if e.Field != path {
				t.Fatalf("%s: finding %v; want findings at %s only", m.name, e, path)
			}
			found = found || e.Type == typ
		}
		if !found {
			t.Fatalf("%s: InstanceType = %v; want a %s at %s", m.name, errs, typ, path)
		}
	})
}

// Generators of anything at all.
var (
	genAnyString = rapid.OneOf(rapid.String(), rapid.StringMatching(`[-a-zA-Z0-9./_ ]{0,12}`),
		rapid.SampledFrom([]string{"", "cpu", "memory", "nvidia.com/gpu", "0", "1", "-1", "0.5", "1e400", "2Gi", "1Gx"}))
	genAnyAmount = rapid.OneOf(rapid.Just(instancetype.Amount{}), rapid.Map(genAnyString, instancetype.ParseAmount))
	genAnyList   = rapid.OneOf(rapid.Just(instancetype.ResourceList(nil)),
		rapid.Map(rapid.MapOfN(rapid.Map(genAnyString, func(s string) instancetype.ResourceName { return instancetype.ResourceName(s) }), genAnyAmount, 0, 6),
			func(m map[instancetype.ResourceName]instancetype.Amount) instancetype.ResourceList { return m }))
	genAnyMap = rapid.OneOf(rapid.Just(map[string]string(nil)), rapid.MapOfN(genAnyString, genAnyString, 0, 5))
)

func drawAnyInstanceType(t *rapid.T, label string) *instancetype.InstanceType {
	it := &instancetype.InstanceType{}
	it.Name = genAnyString.Draw(t, label+" name")
	it.Labels = genAnyMap.Draw(t, label+" labels")
	it.Spec.NodeSelector = genAnyMap.Draw(t, label+" nodeSelector")
	it.Spec.Resources.Limits = genAnyList.Draw(t, label+" limits")
	it.Spec.Resources.Requests = genAnyList.Draw(t, label+" requests")
	return it
}

// Validation never panics on arbitrary instance types, and gives the same findings for
// the same input every time.
func TestPropertyArbitraryInstanceType(t *testing.T) {
	rapid.Check(t, checkArbitraryInstanceType)
}

func checkArbitraryInstanceType(t *rapid.T) {
	it := drawAnyInstanceType(t, "it")
	opts := resolve.Options{NodeSelector: genAnyMap.Draw(t, "extension"), StrictSubset: rapid.Bool().Draw(t, "strict")}
	root := genRoot.Draw(t, "root")
	first := validate.InstanceType(it, root, opts)
	again := validate.InstanceType(it.DeepCopy(), root, opts)
	if !slices.EqualFunc(first, again, func(a, b *field.Error) bool { return *a == *b }) {
		t.Fatalf("InstanceType is not deterministic:\n%v\n%v", first, again)
	}
	for _, e := range first {
		if e.Detail == "" && e.Type != field.ErrorTypeDuplicate {
			t.Fatalf("finding without detail: %v", e)
		}
		checkRule(t, e)
		if root != nil && !strings.HasPrefix(e.Field, root.String()+".") {
			t.Fatalf("finding %v is not below %v", e, root)
		}
	}
}

// Workload validation never panics on arbitrary workloads and catalogs, and is
// deterministic.
func TestPropertyArbitraryWorkload(t *testing.T) {
	rapid.Check(t, checkArbitraryWorkload)
}

func checkArbitraryWorkload(t *rapid.T) {
	var types []*instancetype.InstanceType
	for i := range rapid.IntRange(0, 3).Draw(t, "types") {
		types = append(types, drawAnyInstanceType(t, fmt.Sprint("type ", i)))
	}
	c := resolve.NewCatalog(types...)
	w := &workload.Workload{
		Kind:         rapid.SampledFrom([]workload.Kind{workload.OnlineDeployment, workload.ComputeJob, ""}).Draw(t, "kind"),
		InstanceType: rapid.OneOf(genAnyString, rapid.SampledFrom(c.Names())).Draw(t, "instance type"),
		MLflow:       rapid.Bool().Draw(t, "mlflow"),
	}
	if rapid.Bool().Draw(t, "has resources") {
		w.Resources = &instancetype.ResourceRequirements{Limits: genAnyList.Draw(t, "limits"), Requests: genAnyList.Draw(t, "requests")}
	}
	opts := resolve.Options{NodeSelector: genAnyMap.Draw(t, "extension")}
	first := validate.Workload(c, w, nil, opts)
	again := validate.Workload(c, w, nil, opts)
	if !slices.EqualFunc(first, again, func(a, b *field.Error) bool { return *a == *b }) {
		t.Fatalf("Workload is not deterministic:\n%v\n%v", first, again)
	}
	for _, e := range first {
		checkRule(t, e)
	}
}

// checkRule fails unless e carries the id of a registered rule (lint.Rules) in its Origin.
func checkRule(t *rapid.T, e *field.Error) {
	if _, ok := lint.LookupRule(e.Origin); !ok {
		t.Fatalf("finding without the id of a registered rule (Origin %q): %v", e.Origin, e)
	}
}

// The properties as fuzz targets: go test -fuzz FuzzPropertyArbitraryInstanceType.
func FuzzPropertyArbitraryInstanceType(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkArbitraryInstanceType))
}

func FuzzPropertyArbitraryWorkload(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkArbitraryWorkload))
}
