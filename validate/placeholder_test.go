package validate_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// gpuCatalog holds gpu-a100 and cpu-small, and Tiny_Type, whose name the API server
// refuses, over the built-in default.
var gpuCatalog = resolve.NewCatalog(namedType("gpu-a100"), namedType("cpu-small"), namedType("Tiny_Type"))

func namedType(name string) *instancetype.InstanceType {
	return &instancetype.InstanceType{ObjectMeta: metaName(name)}
}

// nameTests: the one finding of an instance type name of the wrong form, with the
// catalog's nearest name when a catalog is known, else its valid spelling.
var nameTests = []struct {
	name, instanceType string
	namesUnchecked     bool
	want               string // the end of the detail
}{
	{"nearest name of the catalog", "gpu-a10O", false, `; did you mean "gpu-a100"?`},
	{"valid spelling, no catalog", "gpu-a10O", true, `; did you mean "gpu-a10o"?`},
	{"an invalid name of the catalog is not offered", "tiny_type", false, `; known instance types: "cpu-small", "defaultinstancetype", "gpu-a100"`},
	{"upper case", "CPU-Small", false, `; did you mean "cpu-small"?`},
	{"VM size, catalog", "Standard_DS3_v2", false, `(kubectl get instancetypes); known instance types: "cpu-small", "defaultinstancetype", "gpu-a100"`},
	{"VM size, no catalog", "Standard_DS3_v2", true, `(kubectl get instancetypes), such as "defaultinstancetype"`},
}

func TestWorkloadNameDetail(t *testing.T) {
	for _, tt := range nameTests {
		t.Run(tt.name, func(t *testing.T) {
			w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: tt.instanceType}
			errs := validate.Workload(gpuCatalog, w, nil, resolve.Options{NamesUnchecked: tt.namesUnchecked})
			if len(errs) != 1 || errs[0].Type != field.ErrorTypeInvalid || errs[0].Origin != rules.R6 || errs[0].Field != "instance_type" {
				t.Fatalf("Workload(%q) = %v; want one R6 finding at instance_type", tt.instanceType, errs)
			}
			if d := errs[0].Detail; !strings.HasSuffix(d, tt.want) || strings.Count(d, "did you mean") > 1 {
				t.Errorf("Workload(%q) detail:\n%s\nwant it to end with:\n%s", tt.instanceType, d, tt.want)
			}
		})
	}
}

// TestWorkloadBadFormSuggestsFromCatalog: for any name of the wrong form that the catalog
// lacks, the one finding suggests what the catalog's lookup suggests (names of the
// catalog with a valid form, the nearest: see package resolve's tests), not a spelling
// the catalog may not have.
func TestWorkloadBadFormSuggestsFromCatalog(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[a-zA-Z0-9_.-]{1,14}`).Draw(t, "name")
		if _, ok := gpuCatalog.Get(name); ok || rules.IsObjectName(name) || rules.IsVMSize(name) {
			return
		}
		w := &workload.Workload{Kind: workload.ComputeJob, InstanceType: name}
		errs := validate.Workload(gpuCatalog, w, nil, resolve.Options{})
		_, err := gpuCatalog.Lookup(name)
		nf := err.(*resolve.NotFoundError)
		if len(errs) != 1 || !strings.HasSuffix(errs[0].Detail, "; "+nf.Detail()) {
			t.Fatalf("Workload(%q) = %v; want one finding ending with %q", name, errs, nf.Detail())
		}
	})
}

// TestWorkloadPlaceholder: a placeholder is one finding of rule placeholder, at the
// instance type, and a deployment's resources not filled in are findings of that rule too,
// not of R8.
func TestWorkloadPlaceholder(t *testing.T) {
	for _, name := range []string{"<instance type name>", "$INSTANCE_TYPE", "${INSTANCE_TYPE}", "${{parent.inputs.x}}", "{{ x }}"} {
		for _, unchecked := range []bool{false, true} {
			w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: name}
			errs := validate.Workload(gpuCatalog, w, nil, resolve.Options{NamesUnchecked: unchecked})
			if len(errs) != 1 || errs[0].Origin != rules.Placeholder || errs[0].Field != "instance_type" ||
				!strings.HasPrefix(errs[0].Detail, "not filled in: ") {
				t.Errorf("Workload(%q, NamesUnchecked=%v) = %v; want one placeholder finding at instance_type", name, unchecked, errs)
			}
		}
	}
	w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu-a100", Resources: &instancetype.ResourceRequirements{
		Requests: instancetype.ResourceList{"cpu": instancetype.AmountFromString("${CPU}"), "memory": instancetype.AmountFromString("1Gi")},
	}}
	errs := validate.Workload(gpuCatalog, w, nil, resolve.Options{})
	if len(errs) != 1 || errs[0].Origin != rules.Placeholder || errs[0].Field != "resources.requests[cpu]" ||
		!strings.HasSuffix(errs[0].Detail, `; write a quantity such as "500m" or "2"`) {
		t.Errorf("Workload(cpu: ${CPU}) = %v; want one placeholder finding at resources.requests[cpu]", errs)
	}
}
