package validate_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// mlflowType is an instance type large enough for MLflow model deployments.
func mlflowType() *instancetype.InstanceType {
	return &instancetype.InstanceType{
		ObjectMeta: metaName("mlflow"),
		Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": amount("2"), "memory": amount("4G")},
			Limits:   instancetype.ResourceList{"cpu": amount("4"), "memory": amount("8Gi")},
		}},
	}
}

// testCatalog holds the seed instance type (myinstancetypename: limits cpu 1, memory 2Gi,
// one GPU; nodeSelector mylabel=mylabelvalue), mlflowType and the built-in default.
var testCatalog = resolve.NewCatalog(seedType(), mlflowType())

// gpuDeployment is a valid deployment with its own resources section on the seed type.
func gpuDeployment() *workload.Workload {
	return &workload.Workload{
		Kind:         workload.OnlineDeployment,
		Name:         "blue",
		InstanceType: "myinstancetypename",
		Resources: &instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": amount("500m"), "memory": amount("1Gi")},
			Limits:   instancetype.ResourceList{"cpu": amount("1"), "memory": amount("2Gi"), "nvidia.com/gpu": amount("1")},
		},
	}
}

// Changes to a deployment.
func wLimit(name, value string) func(*workload.Workload) {
	return func(w *workload.Workload) { w.Resources.Limits[instancetype.ResourceName(name)] = amount(value) }
}

func wRequest(name, value string) func(*workload.Workload) {
	return func(w *workload.Workload) { w.Resources.Requests[instancetype.ResourceName(name)] = amount(value) }
}

func wDropLimit(names ...string) func(*workload.Workload) {
	return func(w *workload.Workload) {
		for _, name := range names {
			delete(w.Resources.Limits, instancetype.ResourceName(name))
		}
	}
}

func wDropRequest(name string) func(*workload.Workload) {
	return func(w *workload.Workload) { delete(w.Resources.Requests, instancetype.ResourceName(name)) }
}

func wNoResources(w *workload.Workload) { w.Resources = nil }

func wInstanceType(name string) func(*workload.Workload) {
	return func(w *workload.Workload) { w.InstanceType = name }
}

func wChain(fs ...func(*workload.Workload)) func(*workload.Workload) {
	return func(w *workload.Workload) {
		for _, f := range fs {
			f(w)
		}
	}
}

func wMLflow(w *workload.Workload) { w.MLflow = true }

func wJob(w *workload.Workload) { w.Kind = workload.ComputeJob; w.Resources = nil }

const (
	wLimits   = "resources.limits"
	wRequests = "resources.requests"
)

// workloadTests are gpuDeployment plus one change each, and the findings it must bring.
var workloadTests = []struct {
	name   string
	change func(*workload.Workload)
	opts   resolve.Options
	want   []finding
}{
	// Valid changes.
	{name: "gpu deployment", change: func(*workload.Workload) {}},
	{name: "no resources section", change: wNoResources},
	{name: "default instance type, no resources", change: wChain(wNoResources, wInstanceType(""))},
	{name: "cpu only, no limits", change: wDropLimit("cpu", "memory", "nvidia.com/gpu")},
	{name: "limits without gpu", change: wDropLimit("nvidia.com/gpu")},
	{name: "limits of memory alone", change: wDropLimit("cpu", "nvidia.com/gpu")},
	{name: "gpu null asks for none", change: wChain(wDropLimit("cpu", "memory"), wLimit("nvidia.com/gpu", "x"),
		func(w *workload.Workload) { w.Resources.Limits["nvidia.com/gpu"] = null })},
	{name: "gpu 0 asks for none", change: wChain(wDropLimit("cpu", "memory"), wLimit("nvidia.com/gpu", "0"))},
	{name: "memory request of 1M", change: wRequest("memory", "1M")},
	{name: "memory request of 1e6", change: wRequest("memory", "1e6")},
	{name: "mlflow on a large type", change: wChain(wMLflow, wNoResources, wInstanceType("mlflow"))},
	{name: "mlflow with large enough requests", change: wChain(wMLflow, wInstanceType("mlflow"), wDropLimit("nvidia.com/gpu"),
		wRequest("cpu", "2"), wRequest("memory", "4G"), wLimit("cpu", "4"), wLimit("memory", "8Gi"))},
	{name: "compatible extension selector", opts: resolve.Options{NodeSelector: map[string]string{"zone": "a"}}, change: func(*workload.Workload) {}},
	{name: "strict subset does not apply to workloads", opts: resolve.Options{StrictSubset: true}, change: func(*workload.Workload) {}},
	{name: "job", change: wJob},
	{name: "job on the default", change: wChain(wJob, wInstanceType(""))},
	{name: "job ignores resources", change: wChain(wJob, func(w *workload.Workload) {
		w.Resources = &instancetype.ResourceRequirements{Requests: instancetype.ResourceList{"cpus": amount("x")}}
	})},
	{name: "mlflow flag on a job is ignored", change: wChain(wJob, wMLflow)},

	// R8: the resources section.
	{name: "requests.cpu missing", change: wDropRequest("cpu"), want: []finding{required(wRequests + "[cpu]")}},
	{name: "requests.memory missing", change: wDropRequest("memory"), want: []finding{required(wRequests + "[memory]")}},
	{name: "requests missing", change: func(w *workload.Workload) { w.Resources.Requests = nil },
		want: []finding{required(wRequests + "[cpu]"), required(wRequests + "[memory]")}},
	{name: "requests.cpu empty", change: wRequest("cpu", ""), want: []finding{invalid(wRequests + "[cpu]")}},
	{name: "requests.cpu zero", change: wRequest("cpu", "0"), want: []finding{invalid(wRequests + "[cpu]")}},
	{name: "requests.memory bad suffix", change: wRequest("memory", "1Gb"), want: []finding{invalid(wRequests + "[memory]")}},
	{name: "requests.memory below 1M", change: wRequest("memory", "999999"), want: []finding{invalid(wRequests + "[memory]")}},
	{name: "requests.memory of 0.9M", change: wRequest("memory", "0.9M"), want: []finding{invalid(wRequests + "[memory]")}},
	{name: "limits.cpu zero", change: wLimit("cpu", "0"), want: []finding{invalid(wLimits + "[cpu]")}},
	{name: "limits.memory empty", change: wLimit("memory", ""), want: []finding{invalid(wLimits + "[memory]")}},
	{name: "gpu without cpu limit", change: wDropLimit("cpu"), want: []finding{required(wLimits + "[cpu]")}},
	{name: "gpu without cpu and memory limits", change: wDropLimit("cpu", "memory"),
		want: []finding{required(wLimits + "[cpu]"), required(wLimits + "[memory]")}},
	{name: "gpu fraction", change: wLimit("nvidia.com/gpu", "0.5"), want: []finding{invalid(wLimits + "[nvidia.com/gpu]")}},
	{name: "gpu in requests", change: wRequest("nvidia.com/gpu", "1"), want: []finding{forbidden(wRequests + "[nvidia.com/gpu]")}},
	{name: "unknown resource name", change: wLimit("cpus", "1"), want: []finding{notSupported(wLimits + "[cpus]")}},
	{name: "bad extended name", change: wLimit("NVIDIA.com/gpu", "1"), want: []finding{invalid(wLimits + "[NVIDIA.com/gpu]")}},

	// R6, R7, R9 through resolve.
	{name: "unknown instance type", change: wInstanceType("myinstancetype"), want: []finding{notFound("instance_type")}},
	{name: "conflicting selector", opts: resolve.Options{NodeSelector: map[string]string{"mylabel": "other"}},
		change: func(*workload.Workload) {}, want: []finding{invalid("instance_type")}},
	{name: "limit above the type's", change: wLimit("memory", "3Gi"), want: []finding{invalid(wLimits + "[memory]")}},
	{name: "request above own limit", change: wRequest("cpu", "1100m"), want: []finding{invalid(wRequests + "[cpu]")}},
	{name: "request above the type's limit", change: wChain(wDropLimit("cpu", "memory", "nvidia.com/gpu"), wRequest("memory", "3Gi")),
		want: []finding{invalid(wRequests + "[memory]")}},
	{name: "gpu the type lacks", change: wInstanceType("mlflow"), want: []finding{invalid(wLimits + "[nvidia.com/gpu]")}},
	{name: "job on an unknown type", change: wChain(wJob, wInstanceType("nope")), want: []finding{notFound("resources.instance_type")}},
	{name: "job with a deployment's resources above its type's: ignored, as resolve ignores them", change: func(w *workload.Workload) {
		w.Kind = workload.ComputeJob
		w.Resources.Limits["cpu"] = amount("64")
	}},

	// The name of the instance type.
	{name: "an Azure VM size", change: wInstanceType("Standard_DS3_v2"), want: []finding{invalid("instance_type")}},
	{name: "a job on an Azure VM size", change: wChain(wJob, wInstanceType("Standard_E4s_v3")), want: []finding{invalid("resources.instance_type")}},
	{name: "no object name", change: wInstanceType("My Type"), want: []finding{invalid("instance_type")}},
	{name: "unknown name, catalog incomplete", opts: resolve.Options{NamesUnchecked: true}, change: wInstanceType("custom")},
	{name: "VM size, catalog incomplete", opts: resolve.Options{NamesUnchecked: true}, change: wInstanceType("Standard_F2s_v2"),
		want: []finding{invalid("instance_type")}},

	// R10: MLflow.
	{name: "mlflow with small requests", change: wMLflow,
		want: []finding{invalid(wRequests + "[cpu]"), invalid(wRequests + "[memory]")}},
	{name: "mlflow with small memory request", change: wChain(wMLflow, wInstanceType("mlflow"), wDropLimit("nvidia.com/gpu"),
		wRequest("cpu", "2"), wRequest("memory", "3.9G"), wLimit("cpu", "4"), wLimit("memory", "8Gi")),
		want: []finding{invalid(wRequests + "[memory]")}},
	{name: "mlflow with 4Gi is enough", change: wChain(wMLflow, wInstanceType("mlflow"), wDropLimit("nvidia.com/gpu"),
		wRequest("cpu", "2000m"), wRequest("memory", "4Gi"), wLimit("cpu", "4"), wLimit("memory", "8Gi"))},
	{name: "mlflow on the default", change: wChain(wMLflow, wNoResources, wInstanceType("")),
		want: []finding{invalid("instance_type"), invalid("instance_type")}},
	{name: "mlflow on the default by name", change: wChain(wMLflow, wNoResources, wInstanceType("defaultinstancetype")),
		want: []finding{invalid("instance_type"), invalid("instance_type")}},
	{name: "mlflow on a small type", change: wChain(wMLflow, wNoResources),
		want: []finding{invalid("instance_type"), invalid("instance_type")}},
	{name: "mlflow on an unknown type is reported once", change: wChain(wMLflow, wNoResources, wInstanceType("nope")),
		want: []finding{notFound("instance_type")}},
}

func TestWorkload(t *testing.T) {
	for _, root := range []*field.Path{nil, field.NewPath("spec")} {
		prefix := ""
		if root != nil {
			prefix = root.String() + "."
		}
		for _, tc := range workloadTests {
			w := gpuDeployment()
			tc.change(w)
			var want []finding
			for _, f := range tc.want {
				want = append(want, finding{f.Type, prefix + f.Field})
			}
			errs := validate.Workload(testCatalog, w, root, tc.opts)
			if got := findings(errs); !equalFindings(got, want) {
				t.Errorf("%s: Workload(w, c, %v, %+v) = %v; want %v\n%v", tc.name, root, tc.opts, got, want, errs)
			}
			for _, e := range errs {
				if e.Detail == "" {
					t.Errorf("%s: %v has no detail", tc.name, e)
				}
			}
		}
	}
}

func TestWorkloadNil(t *testing.T) {
	if got := findings(validate.Workload(nil, nil, nil, resolve.Options{})); len(got) != 1 {
		t.Errorf("Workload(nil) = %v; want one finding", got)
	}
	// A nil catalog is the built-in default alone.
	w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu"}
	if got, want := findings(validate.Workload(nil, w, nil, resolve.Options{})), []finding{notFound("instance_type")}; !equalFindings(got, want) {
		t.Errorf("Workload(gpu, nil catalog) = %v; want %v", got, want)
	}
}

// The MLflow finding on an instance type names it and says where the value came from.
func TestWorkloadMLflowDetail(t *testing.T) {
	w := &workload.Workload{Kind: workload.OnlineDeployment, MLflow: true}
	errs := validate.Workload(testCatalog, w, nil, resolve.Options{})
	if len(errs) != 2 {
		t.Fatalf("Workload(mlflow on default) = %v; want 2 findings", errs)
	}
	for _, e := range errs {
		if e.BadValue != instancetype.DefaultName || !strings.Contains(e.Detail, `instance type "defaultinstancetype"`) {
			t.Errorf("finding %v does not name the default instance type", e)
		}
	}
}

// The name-form finding says what an Azure VM size is and what to write instead.
func TestWorkloadVMSizeDetail(t *testing.T) {
	w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "Standard_DS3_v2"}
	errs := validate.Workload(testCatalog, w, nil, resolve.Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Detail, "Azure VM size") || !strings.Contains(errs[0].Detail, "InstanceType") {
		t.Errorf("Workload(Standard_DS3_v2) = %v; want one finding explaining VM sizes", errs)
	}
}

// TestWorkloadAgreesWithResolve checks the two entry points: every finding resolve.Resolve
// gives for a table case, validate.Workload gives too (but a name that cannot be an
// instance type's, reported once, by validate), and the placements are the same.
func TestWorkloadAgreesWithResolve(t *testing.T) {
	for _, tc := range workloadTests {
		w := gpuDeployment()
		tc.change(w)
		vp, verrs := validate.Resolve(testCatalog, w, nil, tc.opts)
		rp, rerrs := resolve.Resolve(testCatalog, w, nil, resolve.Options{NodeSelector: tc.opts.NodeSelector})
		got := map[finding]bool{}
		for _, f := range findings(verrs) {
			got[f] = true
		}
		for _, f := range findings(rerrs) {
			if !got[f] && !(f.Type == field.ErrorTypeNotFound && (tc.opts.NamesUnchecked || got[finding{field.ErrorTypeInvalid, f.Field}])) {
				t.Errorf("%s: resolve.Resolve reports %v, validate.Workload does not: %v", tc.name, f, verrs)
			}
		}
		if vp.InstanceType != rp.InstanceType || listString(vp.Limits()) != listString(rp.Limits()) ||
			listString(vp.Requests()) != listString(rp.Requests()) || fmt.Sprint(vp.NodeSelector()) != fmt.Sprint(rp.NodeSelector()) {
			t.Errorf("%s: validate.Resolve and resolve.Resolve give different placements", tc.name)
		}
	}
}

// One mistake, one finding: an amount of the instance type that has a finding of its own
// is no cap for a workload, so the workload gets no second finding for it.
func TestWorkloadIgnoresBadCaps(t *testing.T) {
	bad := seedType()
	bad.Name = "bad"
	bad.Spec.Resources.Limits["cpu"] = amount("0")
	bad.Spec.Resources.Limits["nvidia.com/gpu"] = amount("1.5")
	if errs := validate.InstanceType(bad, nil, resolve.Options{}); len(errs) < 2 {
		t.Fatalf("the bad type has %v; want findings for its cpu and gpu limits", errs)
	}
	c := resolve.NewCatalog(bad)
	w := gpuDeployment()
	w.InstanceType = "bad"
	w.Resources.Limits["nvidia.com/gpu"] = amount("2")
	if errs := validate.Workload(c, w, nil, resolve.Options{}); len(errs) != 0 {
		t.Errorf("Workload on a type with bad limits = %v; want none: the type's own findings say it", errs)
	}
}

func listString(l instancetype.ResourceList) string {
	keys := make([]string, 0, len(l))
	for k, v := range l {
		keys = append(keys, string(k)+"="+v.String())
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

// DeploymentResources finds, for every deployment of workloadTests, the findings of
// Workload that its resources section brings alone (R8, resource names, placeholders),
// and none of those that need the instance type or the catalog (R6, R7, R9, R10).
func TestDeploymentResources(t *testing.T) {
	alone := map[string]bool{rules.R8: true, rules.ResourceName: true, rules.Placeholder: true}
	some := 0
	for _, tc := range workloadTests {
		w := gpuDeployment()
		tc.change(w)
		if w.Kind != workload.OnlineDeployment {
			continue
		}
		var want field.ErrorList
		for _, e := range validate.Workload(testCatalog, w, nil, tc.opts) {
			if alone[e.Origin] {
				want = append(want, e)
			}
		}
		got := validate.DeploymentResources(w.Resources, nil)
		slices.SortStableFunc(got, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: DeploymentResources = %v; want %v", tc.name, got, want)
		}
		some += len(want)
	}
	if some < 10 {
		t.Errorf("%d findings in all: workloadTests no longer test resources", some)
	}
	if errs := validate.DeploymentResources(nil, nil); errs != nil {
		t.Errorf("DeploymentResources(nil) = %v", errs)
	}
	r := gpuDeployment().Resources
	if n := testing.AllocsPerRun(100, func() { validate.DeploymentResources(r, nil) }); n != 0 {
		t.Errorf("DeploymentResources of a valid section: %v allocations; want 0", n)
	}
}
