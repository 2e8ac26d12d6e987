package validate_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// finding is what the tests match a field.Error on: its type and its path, never its
// message text.
type finding struct {
	Type  field.ErrorType
	Field string
}

func (f finding) String() string { return string(f.Type) + " " + f.Field }

func findings(errs field.ErrorList) []finding {
	var fs []finding
	for _, e := range errs {
		fs = append(fs, finding{e.Type, e.Field})
	}
	return fs
}

func equalFindings(a, b []finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Shorthands for expected findings.
func required(f string) finding     { return finding{field.ErrorTypeRequired, f} }
func invalid(f string) finding      { return finding{field.ErrorTypeInvalid, f} }
func notSupported(f string) finding { return finding{field.ErrorTypeNotSupported, f} }
func forbidden(f string) finding    { return finding{field.ErrorTypeForbidden, f} }
func notFound(f string) finding     { return finding{field.ErrorTypeNotFound, f} }
func duplicate(f string) finding    { return finding{field.ErrorTypeDuplicate, f} }
func tooMany(f string) finding      { return finding{field.ErrorTypeTooMany, f} }

func metaName(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }

func amount(s string) instancetype.Amount { return instancetype.ParseAmount(s) }

// null is a resource value written as null.
var null instancetype.Amount

// Mutations of an instance type, each one change.
func setLimit(name, value string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		it.Spec.Resources.Limits[instancetype.ResourceName(name)] = amount(value)
	}
}

func setRequest(name, value string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		it.Spec.Resources.Requests[instancetype.ResourceName(name)] = amount(value)
	}
}

func nullLimit(name string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) { it.Spec.Resources.Limits[instancetype.ResourceName(name)] = null }
}

func nullRequest(name string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		it.Spec.Resources.Requests[instancetype.ResourceName(name)] = null
	}
}

func dropLimit(name string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) { delete(it.Spec.Resources.Limits, instancetype.ResourceName(name)) }
}

func dropRequest(name string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		delete(it.Spec.Resources.Requests, instancetype.ResourceName(name))
	}
}

func setName(name string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) { it.Name = name }
}

func setSelector(k, v string) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) { it.Spec.NodeSelector[k] = v }
}

func unchanged(*instancetype.InstanceType) {}

// addExtended sets n extended resources example.com/rI in limits, or in requests as null,
// beside what the lists hold.
func addExtended(n int, inRequests bool) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		for i := range n {
			name := instancetype.ResourceName(fmt.Sprintf("example.com/r%d", i))
			if inRequests {
				it.Spec.Resources.Requests[name] = null
			} else {
				it.Spec.Resources.Limits[name] = amount("1")
			}
		}
	}
}

// selectorOf gives the instance type a nodeSelector of n entries.
func selectorOf(n int) func(*instancetype.InstanceType) {
	return func(it *instancetype.InstanceType) {
		it.Spec.NodeSelector = map[string]string{}
		for i := range n {
			it.Spec.NodeSelector[fmt.Sprintf("l%d", i)] = "v"
		}
	}
}

const (
	limits   = "spec.resources.limits"
	requests = "spec.resources.requests"
	nodeSel  = "spec.nodeSelector"
)

var (
	// Amounts of 64 bytes, the most the CRD takes, and of 65.
	amount64  = "0.5" + strings.Repeat("0", 61)
	amount65  = amount64 + "0"
	extension = map[string]string{"mylabel": "mylabelvalue", "pool": "ml"}
	long253   = strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61)
)

// instanceTypeTests are the seed instance type plus one change each, with the findings
// the change must bring: none for a valid change.
var instanceTypeTests = []struct {
	name   string
	change func(*instancetype.InstanceType)
	opts   resolve.Options
	want   []finding
}{
	// Valid changes.
	{name: "seed", change: unchanged},
	{name: "name with dots and dashes", change: setName("gpu-1.example")},
	{name: "name of one byte", change: setName("a")},
	{name: "name of 253 bytes", change: setName(long253)},
	{name: "defaultinstancetype overrides the built-in", change: setName(instancetype.DefaultName)},
	{name: "no nodeSelector", change: func(it *instancetype.InstanceType) { it.Spec.NodeSelector = nil }},
	{name: "nodeSelector with prefixed key and empty value", change: setSelector("kubernetes.io/os", "")},
	{name: "labels", change: func(it *instancetype.InstanceType) { it.Labels = map[string]string{"team": "ml"} }},
	{name: "gpu null", change: nullLimit("nvidia.com/gpu")},
	{name: "gpu 0", change: setLimit("nvidia.com/gpu", "0")},
	{name: "gpu left out", change: dropLimit("nvidia.com/gpu")},
	{name: "gpu 8", change: setLimit("nvidia.com/gpu", "8")},
	{name: "gpu 1k", change: setLimit("nvidia.com/gpu", "1k")},
	{name: "gpu 2000m", change: setLimit("nvidia.com/gpu", "2000m")},
	{name: "amd gpu", change: setLimit("amd.com/gpu", "2")},
	{name: "vendor resource with short prefix", change: setLimit("example/fpga", "1")},
	{name: "gpu null in requests means none", change: nullRequest("nvidia.com/gpu")},
	{name: "cpu request equals limit", change: setRequest("cpu", "1")},
	{name: "cpu request 1000m equals limit 1", change: setRequest("cpu", "1000m")},
	{name: "cpu decimal", change: setRequest("cpu", "0.5")},
	{name: "cpu exponent", change: setRequest("cpu", "5e-1")},
	{name: "cpu smallest", change: setRequest("cpu", "1m")},
	{name: "memory plain bytes", change: setRequest("memory", "1073741824")},
	{name: "memory decimal suffix", change: setRequest("memory", "1G")},
	{name: "memory request equals limit", change: setRequest("memory", "2Gi")},
	{name: "memory request 2048Mi equals limit 2Gi", change: setRequest("memory", "2048Mi")},
	{name: "extension selector with the same pair", opts: resolve.Options{NodeSelector: extension}, change: unchanged},
	{name: "extension selector with other keys", opts: resolve.Options{NodeSelector: map[string]string{"zone": "a"}}, change: unchanged},
	{name: "strict subset", opts: resolve.Options{NodeSelector: extension, StrictSubset: true}, change: unchanged},
	{name: "strict subset without a nodeSelector", opts: resolve.Options{StrictSubset: true},
		change: func(it *instancetype.InstanceType) { it.Spec.NodeSelector = nil }},

	// R1: metadata.name.
	{name: "name missing", change: setName(""), want: []finding{required("metadata.name")}},
	{name: "name uppercase", change: setName("My-Type"), want: []finding{invalid("metadata.name")}},
	{name: "name with underscore", change: setName("my_type"), want: []finding{invalid("metadata.name")}},
	{name: "name starts with dash", change: setName("-a"), want: []finding{invalid("metadata.name")}},
	{name: "name ends with dot", change: setName("a."), want: []finding{invalid("metadata.name")}},
	{name: "name with empty label", change: setName("a..b"), want: []finding{invalid("metadata.name")}},
	{name: "name label ends with dash", change: setName("a-.b"), want: []finding{invalid("metadata.name")}},
	{name: "name with slash", change: setName("a/b"), want: []finding{invalid("metadata.name")}},
	{name: "name of 254 bytes", change: setName(long253 + "d"), want: []finding{invalid("metadata.name")}},
	{name: "name not ASCII", change: setName("gpü"), want: []finding{invalid("metadata.name")}},
	{name: "bad label", change: func(it *instancetype.InstanceType) { it.Labels = map[string]string{"team": "m l"} },
		want: []finding{invalid("metadata.labels[team]")}},

	// R2: cpu and memory, requests and limits.
	{name: "limits.cpu missing", change: dropLimit("cpu"), want: []finding{required(limits + "[cpu]")}},
	{name: "limits.memory missing", change: dropLimit("memory"), want: []finding{required(limits + "[memory]")}},
	{name: "requests.cpu missing", change: dropRequest("cpu"), want: []finding{required(requests + "[cpu]")}},
	{name: "requests.memory missing", change: dropRequest("memory"), want: []finding{required(requests + "[memory]")}},
	{name: "limits.cpu null", change: nullLimit("cpu"), want: []finding{required(limits + "[cpu]")}},
	{name: "requests.memory null", change: nullRequest("memory"), want: []finding{required(requests + "[memory]")}},
	{name: "limits missing", change: func(it *instancetype.InstanceType) { it.Spec.Resources.Limits = nil },
		want: []finding{required(limits + "[cpu]"), required(limits + "[memory]")}},
	{name: "resources missing", change: func(it *instancetype.InstanceType) { it.Spec.Resources = instancetype.ResourceRequirements{} },
		want: []finding{required(limits + "[cpu]"), required(limits + "[memory]"), required(requests + "[cpu]"), required(requests + "[memory]")}},
	{name: "limits.cpu empty", change: setLimit("cpu", ""), want: []finding{invalid(limits + "[cpu]")}},
	{name: "requests.memory empty", change: setRequest("memory", ""), want: []finding{invalid(requests + "[memory]")}},
	{name: "requests.memory bad suffix", change: setRequest("memory", "2Gx"), want: []finding{invalid(requests + "[memory]")}},
	{name: "requests.cpu not a number", change: setRequest("cpu", "one"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "requests.cpu with space", change: setRequest("cpu", " 1"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "limits.memory out of range", change: setLimit("memory", "1e400"), want: []finding{invalid(limits + "[memory]")}},
	{name: "limits.cpu zero", change: setLimit("cpu", "0"), want: []finding{invalid(limits + "[cpu]")}},
	{name: "limits.memory zero with suffix", change: setLimit("memory", "0Gi"), want: []finding{invalid(limits + "[memory]")}},
	{name: "requests.cpu zero millicores", change: setRequest("cpu", "0m"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "requests.cpu negative", change: setRequest("cpu", "-100m"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "requests.memory negative", change: setRequest("memory", "-1Gi"), want: []finding{invalid(requests + "[memory]")}},

	// The bounds of the CRD on amounts (R2 for cpu and memory, R3 for extended resources).
	{name: "requests.cpu of 64 bytes", change: setRequest("cpu", amount64)},
	{name: "requests.cpu of 65 bytes", change: setRequest("cpu", amount65), want: []finding{invalid(requests + "[cpu]")}},
	{name: "limits.memory of 65 bytes, not a quantity", change: setLimit("memory", strings.Repeat("9", 65)), want: []finding{invalid(limits + "[memory]")}},
	{name: "gpu of 64 bytes", change: setLimit("nvidia.com/gpu", "1."+strings.Repeat("0", 62))},
	{name: "gpu of 65 bytes", change: setLimit("nvidia.com/gpu", "1."+strings.Repeat("0", 63)), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "limits.memory exponent of 3 digits", change: setLimit("memory", "4e+009")},
	{name: "limits.memory exponent of 4 digits", change: setLimit("memory", "4e+0009"), want: []finding{invalid(limits + "[memory]")}},
	{name: "limits.memory exponent of 4 digits, below the request", change: setLimit("memory", "1e0009"), want: []finding{invalid(limits + "[memory]")}},
	{name: "requests.cpu exponent of 4 digits", change: setRequest("cpu", "5E-0001"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "gpu exponent of 4 digits", change: setLimit("nvidia.com/gpu", "1e0000"), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "limits.memory exponent beyond int32", change: setLimit("memory", "1e3061300070"), want: []finding{invalid(limits + "[memory]")}},
	{name: "limits.memory exa suffix", change: setLimit("memory", "1E")},
	{name: "16 limits", change: addExtended(13, false)},
	{name: "17 limits", change: addExtended(14, false), want: []finding{tooMany(limits)}},
	{name: "17 requests, 15 of them null", change: addExtended(15, true)},
	{name: "17 requests", change: func(it *instancetype.InstanceType) {
		for i := range 15 {
			it.Spec.Resources.Requests[instancetype.ResourceName(fmt.Sprintf("r%d", i))] = amount("1")
		}
	}, want: append([]finding{tooMany(requests)}, func() (fs []finding) {
		for _, n := range []string{"r0", "r1", "r10", "r11", "r12", "r13", "r14", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"} {
			fs = append(fs, notSupported(requests+"["+n+"]"))
		}
		return fs
	}()...)},
	{name: "64 nodeSelector entries", change: selectorOf(64)},
	{name: "65 nodeSelector entries", change: selectorOf(65), want: []finding{tooMany(nodeSel)}},

	// Requests within limits.
	{name: "requests.cpu above limit", change: setRequest("cpu", "1001m"), want: []finding{invalid(requests + "[cpu]")}},
	{name: "requests.memory above limit", change: setRequest("memory", "3Gi"), want: []finding{invalid(requests + "[memory]")}},
	{name: "limits.memory below request", change: setLimit("memory", "1Gi"), want: []finding{invalid(requests + "[memory]")}},

	// R3: extended resources.
	{name: "gpu fraction", change: setLimit("nvidia.com/gpu", "0.5"), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "gpu millis", change: setLimit("nvidia.com/gpu", "500m"), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "gpu negative", change: setLimit("nvidia.com/gpu", "-1"), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "gpu empty", change: setLimit("nvidia.com/gpu", ""), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "gpu not a number", change: setLimit("nvidia.com/gpu", "one"), want: []finding{invalid(limits + "[nvidia.com/gpu]")}},
	{name: "gpu in requests too", change: setRequest("nvidia.com/gpu", "1"), want: []finding{forbidden(requests + "[nvidia.com/gpu]")}},
	{name: "gpu in requests only", change: func(it *instancetype.InstanceType) {
		delete(it.Spec.Resources.Limits, "nvidia.com/gpu")
		it.Spec.Resources.Requests["nvidia.com/gpu"] = amount("1")
	}, want: []finding{forbidden(requests + "[nvidia.com/gpu]")}},
	{name: "gpu in requests, fraction", change: setRequest("nvidia.com/gpu", "0.5"),
		want: []finding{forbidden(requests + "[nvidia.com/gpu]"), invalid(requests + "[nvidia.com/gpu]")}},
	{name: "amd gpu in requests", change: setRequest("amd.com/gpu", "1"), want: []finding{forbidden(requests + "[amd.com/gpu]")}},

	// Resource names.
	{name: "cpus", change: setLimit("cpus", "1"), want: []finding{notSupported(limits + "[cpus]")}},
	{name: "gpu unqualified", change: setLimit("gpu", "1"), want: []finding{notSupported(limits + "[gpu]")}},
	{name: "mem", change: setRequest("mem", "1Gi"), want: []finding{notSupported(requests + "[mem]")}},
	{name: "memroy", change: setRequest("memroy", "1Gi"), want: []finding{notSupported(requests + "[memroy]")}},
	{name: "ephemeral-storage", change: setLimit("ephemeral-storage", "1Gi"), want: []finding{notSupported(limits + "[ephemeral-storage]")}},
	{name: "empty name", change: setLimit("", "1"), want: []finding{notSupported(limits + "[]")}},
	{name: "CPU instead of cpu", change: func(it *instancetype.InstanceType) {
		delete(it.Spec.Resources.Limits, "cpu")
		it.Spec.Resources.Limits["CPU"] = amount("1")
	}, want: []finding{required(limits + "[cpu]"), notSupported(limits + "[CPU]")}},
	{name: "uppercase domain", change: setLimit("NVIDIA.com/gpu", "1"), want: []finding{invalid(limits + "[NVIDIA.com/gpu]")}},
	{name: "empty domain", change: setLimit("/gpu", "1"), want: []finding{invalid(limits + "[/gpu]")}},
	{name: "empty name after domain", change: setLimit("nvidia.com/", "1"), want: []finding{invalid(limits + "[nvidia.com/]")}},
	{name: "two slashes", change: setLimit("nvidia.com/gpu/a100", "1"), want: []finding{invalid(limits + "[nvidia.com/gpu/a100]")}},
	{name: "kubernetes.io domain", change: setLimit("kubernetes.io/gpu", "1"), want: []finding{invalid(limits + "[kubernetes.io/gpu]")}},
	{name: "kubernetes.io subdomain", change: setLimit("node.kubernetes.io/gpu", "1"), want: []finding{invalid(limits + "[node.kubernetes.io/gpu]")}},
	{name: "quota prefix", change: setLimit("requests.nvidia.com/gpu", "1"), want: []finding{invalid(limits + "[requests.nvidia.com/gpu]")}},
	{name: "prefix of 245 bytes", change: setLimit(long253[:245]+"/gpu", "1"), want: []finding{invalid(limits + "[" + long253[:245] + "/gpu]")}},

	// R4: nodeSelector labels.
	{name: "nodeSelector key with space", change: setSelector("my label", "x"), want: []finding{invalid(nodeSel + "[my label]")}},
	{name: "nodeSelector key with uppercase prefix", change: setSelector("Example.com/pool", "x"), want: []finding{invalid(nodeSel + "[Example.com/pool]")}},
	{name: "nodeSelector empty key", change: setSelector("", "x"), want: []finding{invalid(nodeSel + "[]")}},
	{name: "nodeSelector value too long", change: setSelector("pool", strings.Repeat("x", 64)), want: []finding{invalid(nodeSel + "[pool]")}},
	{name: "nodeSelector bad key and value", change: setSelector("a b", "c d"), want: []finding{invalid(nodeSel + "[a b]"), invalid(nodeSel + "[a b]")}},

	// R7: the extension's nodeSelector.
	{name: "conflicts with the extension", opts: resolve.Options{NodeSelector: map[string]string{"mylabel": "other"}},
		change: unchanged, want: []finding{invalid(nodeSel + "[mylabel]")}},
	{name: "conflicts with the extension, strict", opts: resolve.Options{NodeSelector: map[string]string{"mylabel": "other"}, StrictSubset: true},
		change: unchanged, want: []finding{invalid(nodeSel + "[mylabel]")}},
	{name: "strict, key the extension lacks", opts: resolve.Options{NodeSelector: extension, StrictSubset: true},
		change: setSelector("zone", "a"), want: []finding{invalid(nodeSel + "[zone]")}},
	{name: "strict, extension has no selector", opts: resolve.Options{StrictSubset: true},
		change: unchanged, want: []finding{invalid(nodeSel + "[mylabel]")}},
}

func TestInstanceType(t *testing.T) {
	for _, root := range []*field.Path{nil, field.NewPath("items").Index(1)} {
		prefix := ""
		if root != nil {
			prefix = root.String() + "."
		}
		for _, tc := range instanceTypeTests {
			it := seedType()
			tc.change(it)
			var want []finding
			for _, f := range tc.want {
				want = append(want, finding{f.Type, prefix + f.Field})
			}
			errs := validate.InstanceType(it, root, tc.opts)
			if got := findings(errs); !equalFindings(got, want) {
				t.Errorf("%s: InstanceType(it, %v, %+v) = %v; want %v\n%v", tc.name, root, tc.opts, got, want, errs)
			}
			for _, e := range errs {
				if e.Detail == "" && e.Type != field.ErrorTypeDuplicate {
					t.Errorf("%s: %v has no detail", tc.name, e)
				}
			}
		}
	}
}

func TestInstanceTypeNil(t *testing.T) {
	got := findings(validate.InstanceType(nil, field.NewPath("items").Index(0), resolve.Options{}))
	if want := []finding{required("items[0]")}; !equalFindings(got, want) {
		t.Errorf("InstanceType(nil) = %v; want %v", got, want)
	}
}

// The instance types of the source document are valid.
func TestSeedInstanceTypes(t *testing.T) {
	cpusmall := &instancetype.InstanceType{
		ObjectMeta: metaName("cpusmall"),
		Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": amount("100m"), "memory": amount("100Mi")},
			Limits:   instancetype.ResourceList{"cpu": amount("1"), "nvidia.com/gpu": amount("0"), "memory": amount("1Gi")},
		}},
	}
	custom := &instancetype.InstanceType{
		ObjectMeta: metaName("defaultinstancetype"),
		Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": amount("1"), "memory": amount("1Gi")},
			Limits:   instancetype.ResourceList{"cpu": amount("1"), "nvidia.com/gpu": amount("0"), "memory": amount("1Gi")},
		}},
	}
	def := instancetype.Default()
	def.Spec.Resources.Limits["nvidia.com/gpu"] = null // as the document writes it
	for _, it := range []*instancetype.InstanceType{seedType(), cpusmall, custom, instancetype.Default(), def} {
		if errs := validate.InstanceType(it, nil, resolve.Options{}); errs != nil {
			t.Errorf("InstanceType(%s) = %v; want nil", it.Name, errs)
		}
	}
}

// Findings come in the same order every time, however many keys are bad.
func TestInstanceTypeDeterministic(t *testing.T) {
	it := seedType()
	for i := range 20 {
		it.Spec.NodeSelector[fmt.Sprintf("bad key %d", i)] = "bad value"
		it.Spec.Resources.Limits[instancetype.ResourceName(fmt.Sprintf("res%d", i))] = amount("1")
		it.Spec.Resources.Requests[instancetype.ResourceName(fmt.Sprintf("example.com/r%d", i))] = amount("x")
	}
	opts := resolve.Options{NodeSelector: map[string]string{"pool": "x"}, StrictSubset: true}
	first := validate.InstanceType(it, nil, opts)
	if len(first) < 100 {
		t.Fatalf("InstanceType: %d findings; want at least 100", len(first))
	}
	for range 20 {
		it2 := it.DeepCopy() // new maps, new iteration order
		again := validate.InstanceType(it2, nil, opts)
		if fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("InstanceType is not deterministic:\n%v\n%v", first, again)
		}
	}
}

// A huge value cannot make a huge message; its path still names the field.
func TestInstanceTypeClipsValues(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	it := seedType()
	it.Name = huge
	it.Spec.Resources.Limits["cpu"] = amount(huge)
	it.Spec.Resources.Limits[instancetype.ResourceName(huge)] = amount("1")
	it.Spec.NodeSelector["pool"] = huge
	errs := validate.InstanceType(it, nil, resolve.Options{NodeSelector: map[string]string{"pool": "ml"}})
	if len(errs) != 5 {
		t.Fatalf("InstanceType: %d findings; want 5: %.300v", len(errs), errs)
	}
	for _, e := range errs {
		body := e.ErrorBody()
		if len(body) > 2000 {
			t.Errorf("%s: message of %d bytes: %.300s", e.Field[:min(len(e.Field), 40)], len(body), body)
		}
	}
}

func TestInstanceTypeDoesNotModify(t *testing.T) {
	it := seedType()
	it.Spec.Resources.Limits["cpus"] = amount("1")
	before := it.DeepCopy()
	opts := resolve.Options{NodeSelector: maps.Clone(extension), StrictSubset: true}
	validate.InstanceType(it, nil, opts)
	if fmt.Sprint(it) != fmt.Sprint(before) || !maps.Equal(opts.NodeSelector, extension) {
		t.Errorf("InstanceType modified its arguments")
	}
}
