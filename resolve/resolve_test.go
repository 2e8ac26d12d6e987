package resolve

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/workload"
)

// resolveTests are the rules of resolution, each case one rule taken one way or the
// other. Unless a case sets catalog, it resolves against cpusmall, myinstancetypename and
// gpu over the built-in default.
var resolveTests = []struct {
	name      string
	catalog   []*instancetype.InstanceType // nil: the standard catalog above
	w         *workload.Workload
	extension map[string]string
	root      *field.Path

	wantType     string
	wantBuiltIn  bool
	wantSelector map[string]string
	wantRequests string // listText of the placement's requests
	wantLimits   string
	wantErrs     []string // errText
}{
	// R6: no name, the default.
	{
		name:         "no name gives the built-in default",
		w:            &workload.Workload{Kind: workload.OnlineDeployment, Name: "blue"},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=100m,memory=2Gi",
		wantLimits:   "cpu=2,memory=2Gi",
	},
	{
		name:         "nil workload is the zero workload",
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=100m,memory=2Gi",
		wantLimits:   "cpu=2,memory=2Gi",
	},
	{
		name:         "explicit defaultinstancetype is the built-in one",
		w:            &workload.Workload{Kind: workload.ComputeJob, InstanceType: instancetype.DefaultName},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=100m,memory=2Gi",
		wantLimits:   "cpu=2,memory=2Gi",
	},
	// R5: a custom default overrides the built-in one.
	{
		name:         "custom default overrides the built-in one",
		catalog:      []*instancetype.InstanceType{cpuSmall(), customDefault()},
		w:            &workload.Workload{Kind: workload.OnlineDeployment},
		wantType:     instancetype.DefaultName,
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
	},
	// A named type.
	{
		name:         "named type",
		w:            &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall"},
		wantType:     "cpusmall",
		wantRequests: "cpu=100m,memory=100Mi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
	},
	{
		name:         "job names a type with a selector",
		w:            &workload.Workload{Kind: workload.ComputeJob, InstanceType: "myinstancetypename"},
		wantType:     "myinstancetypename",
		wantSelector: sel("mylabel", "mylabelvalue"),
		wantRequests: "cpu=700m,memory=1500Mi",
		wantLimits:   "cpu=1,memory=2Gi,nvidia.com/gpu=1",
	},
	// Unknown type.
	{
		name:         "unknown type of a deployment",
		w:            &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmal"},
		extension:    sel("pool", "ml"),
		wantType:     "cpusmal",
		wantSelector: sel("pool", "ml"),
		wantErrs:     []string{"FieldValueNotFound instance_type"},
	},
	{
		name:     "unknown type of a job",
		w:        &workload.Workload{Kind: workload.ComputeJob, InstanceType: "nope"},
		wantType: "nope",
		wantErrs: []string{"FieldValueNotFound resources.instance_type"},
	},
	{
		name:     "unknown type below a root",
		w:        &workload.Workload{Kind: workload.ComputeJob, InstanceType: "nope"},
		root:     field.NewPath("items").Index(2),
		wantType: "nope",
		wantErrs: []string{"FieldValueNotFound items[2].resources.instance_type"},
	},
	{
		name:     "names are case-sensitive",
		w:        &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "CPUSmall"},
		wantType: "CPUSmall",
		wantErrs: []string{"FieldValueNotFound instance_type"},
	},
	{
		name: "unknown type keeps the section and checks it against itself",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "nope", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "2", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi"),
		}},
		wantType:     "nope",
		wantRequests: "cpu=2,memory=1Gi",
		wantLimits:   "cpu=1,memory=1Gi",
		wantErrs:     []string{"FieldValueNotFound instance_type", "FieldValueInvalid resources.requests[cpu]"},
	},
	// Own resources (R8, R9).
	{
		name: "own resources within the type",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "0.1", "memory", "0.2Gi"),
			Limits:   rl("cpu", "0.2", "memory", "0.5Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=0.1,memory=0.2Gi",
		wantLimits:   "cpu=0.2,memory=0.5Gi,nvidia.com/gpu=0",
	},
	{
		name: "own limits equal to the type's",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1000m", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1024Mi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=1000m,memory=1Gi",
		wantLimits:   "cpu=1,memory=1024Mi,nvidia.com/gpu=0",
	},
	{
		name: "no limits takes the type's as a whole",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "myinstancetypename", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "500m", "memory", "1Gi"),
		}},
		wantType:     "myinstancetypename",
		wantSelector: sel("mylabel", "mylabelvalue"),
		wantRequests: "cpu=500m,memory=1Gi",
		wantLimits:   "cpu=1,memory=2Gi,nvidia.com/gpu=1",
	},
	{
		name: "empty limits takes the type's as a whole",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "500m", "memory", "1Gi"),
			Limits:   instancetype.ResourceList{},
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=500m,memory=1Gi",
		wantLimits:   "cpu=2,memory=2Gi",
	},
	{
		name: "cpu limit above the type's",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "100m", "memory", "100Mi"),
			Limits:   rl("cpu", "4", "memory", "1Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=100m,memory=100Mi",
		wantLimits:   "cpu=4,memory=1Gi,nvidia.com/gpu=0",
		wantErrs:     []string{"FieldValueInvalid resources.limits[cpu]"},
	},
	{
		name: "every limit above the type's, in field order",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "100m", "memory", "100Mi"),
			Limits:   rl("memory", "1025Mi", "nvidia.com/gpu", "1", "cpu", "1001m"),
		}},
		root:         field.NewPath("doc"),
		wantType:     "cpusmall",
		wantRequests: "cpu=100m,memory=100Mi",
		wantLimits:   "cpu=1001m,memory=1025Mi,nvidia.com/gpu=1",
		wantErrs: []string{
			"FieldValueInvalid doc.resources.limits[cpu]",
			"FieldValueInvalid doc.resources.limits[memory]",
			"FieldValueInvalid doc.resources.limits[nvidia.com/gpu]",
		},
	},
	{
		name: "GPU the type does not provide",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "1"),
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=1",
		wantErrs:     []string{"FieldValueInvalid resources.limits[nvidia.com/gpu]"},
	},
	{
		name: "any extended resource the type does not provide",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "amd.com/gpu", "1"),
		}},
		wantType:     "gpu",
		wantSelector: sel("pool", "gpu", "accelerator", "nvidia"),
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "amd.com/gpu=1,cpu=1,memory=1Gi,nvidia.com/gpu=2",
		wantErrs:     []string{"FieldValueInvalid resources.limits[amd.com/gpu]"},
	},
	{
		name: "GPU the type provides as null",
		catalog: []*instancetype.InstanceType{newType("nullgpu", nil,
			rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "<null>"))},
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "nullgpu", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "2"),
		}},
		wantType:     "nullgpu",
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=2",
		wantErrs:     []string{"FieldValueInvalid resources.limits[nvidia.com/gpu]"},
	},
	{
		name: "no GPU asked of a type without one",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "0"),
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
	},
	{
		name: "GPU within the type's",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "2"),
		}},
		wantType:     "gpu",
		wantSelector: sel("pool", "gpu", "accelerator", "nvidia"),
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=8,memory=32Gi,nvidia.com/gpu=2",
	},
	{
		name: "GPU above a type's zero",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "100m", "memory", "100Mi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "1"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=100m,memory=100Mi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=1",
		wantErrs:     []string{"FieldValueInvalid resources.limits[nvidia.com/gpu]"},
	},
	// Requests within the effective limits.
	{
		name: "request above its own limit",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "600m", "memory", "1Gi"),
			Limits:   rl("cpu", "500m", "memory", "1Gi"),
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=600m,memory=1Gi",
		wantLimits:   "cpu=500m,memory=1Gi",
		wantErrs:     []string{"FieldValueInvalid resources.requests[cpu]"},
	},
	{
		name: "request equal to its own limit",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "0.5", "memory", "1G"),
			Limits:   rl("cpu", "500m", "memory", "1000M"),
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=0.5,memory=1G",
		wantLimits:   "cpu=500m,memory=1000M",
	},
	{
		name: "request above the type's limit when the section has none",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "2", "memory", "2Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=2,memory=2Gi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
		wantErrs:     []string{"FieldValueInvalid resources.requests[cpu]", "FieldValueInvalid resources.requests[memory]"},
	},
	{
		name: "request above the type's limit of a resource the section's limits leave out",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "2", "memory", "100Mi"),
			Limits:   rl("memory", "1Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=2,memory=100Mi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
		wantErrs:     []string{"FieldValueInvalid resources.requests[cpu]"},
	},
	{
		name: "limit and request both too big are both reported",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "3", "memory", "100Mi"),
			Limits:   rl("cpu", "2", "memory", "1Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=3,memory=100Mi",
		wantLimits:   "cpu=2,memory=1Gi,nvidia.com/gpu=0",
		wantErrs:     []string{"FieldValueInvalid resources.limits[cpu]", "FieldValueInvalid resources.requests[cpu]"},
	},
	// Invalid and unset amounts are validate's business.
	{
		name: "invalid and unset amounts are skipped",
		catalog: []*instancetype.InstanceType{newType("broken", nil,
			rl("cpu", "x", "memory", "<null>"), rl("cpu", "", "nvidia.com/gpu", "1.5x"))},
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "broken", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "2Gx", "memory", "<null>", "nvidia.com/gpu", "9"),
			Limits:   rl("cpu", "100", "memory", "", "nvidia.com/gpu", "4", "example.com/foo", "<null>"),
		}},
		wantType:     "broken",
		wantRequests: "cpu=2Gx,memory=,nvidia.com/gpu=9",
		wantLimits:   "cpu=100,example.com/foo=,memory=,nvidia.com/gpu=4",
		wantErrs:     []string{"FieldValueInvalid resources.requests[nvidia.com/gpu]"},
	},
	{
		name: "a set but invalid own limit caps nothing",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "4", "memory", "100Mi"),
			Limits:   rl("cpu", "lots", "memory", "1Gi"),
		}},
		wantType:     "cpusmall",
		wantRequests: "cpu=4,memory=100Mi",
		wantLimits:   "cpu=lots,memory=1Gi,nvidia.com/gpu=0",
	},
	{
		name: "unqualified unknown resources are not said to be missing",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "1", "memory", "1Gi", "gpu", "1"),
		}},
		wantType:     instancetype.DefaultName,
		wantBuiltIn:  true,
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=1,gpu=1,memory=1Gi",
	},
	{
		name: "resources section without requests",
		w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
			Limits: rl("cpu", "1"),
		}},
		wantType:    instancetype.DefaultName,
		wantBuiltIn: true,
		wantLimits:  "cpu=1,memory=2Gi",
	},
	// Selectors (R7).
	{
		name:         "extension selector alone",
		w:            &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall"},
		extension:    sel("pool", "ml"),
		wantType:     "cpusmall",
		wantSelector: sel("pool", "ml"),
		wantRequests: "cpu=100m,memory=100Mi",
		wantLimits:   "cpu=1,memory=1Gi,nvidia.com/gpu=0",
	},
	{
		name:         "selectors merged",
		w:            &workload.Workload{Kind: workload.ComputeJob, InstanceType: "gpu"},
		extension:    sel("pool", "gpu", "zone", "west"),
		wantType:     "gpu",
		wantSelector: sel("pool", "gpu", "zone", "west", "accelerator", "nvidia"),
		wantRequests: "cpu=4,memory=16Gi",
		wantLimits:   "cpu=8,memory=32Gi,nvidia.com/gpu=2",
	},
	{
		name:         "type selector a subset of the extension's",
		w:            &workload.Workload{Kind: workload.ComputeJob, InstanceType: "myinstancetypename"},
		extension:    sel("mylabel", "mylabelvalue", "zone", "west"),
		wantType:     "myinstancetypename",
		wantSelector: sel("mylabel", "mylabelvalue", "zone", "west"),
		wantRequests: "cpu=700m,memory=1500Mi",
		wantLimits:   "cpu=1,memory=2Gi,nvidia.com/gpu=1",
	},
	{
		name:         "conflicting key",
		w:            &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu"},
		extension:    sel("pool", "cpu"),
		wantType:     "gpu",
		wantSelector: sel("pool", "cpu"),
		wantRequests: "cpu=4,memory=16Gi",
		wantLimits:   "cpu=8,memory=32Gi,nvidia.com/gpu=2",
		wantErrs:     []string{"FieldValueInvalid instance_type"},
	},
	{
		name: "every conflicting key, and resources too",
		w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu", Resources: &instancetype.ResourceRequirements{
			Requests: rl("cpu", "1", "memory", "1Gi"),
			Limits:   rl("cpu", "16", "memory", "1Gi"),
		}},
		extension:    sel("pool", "cpu", "accelerator", "amd", "zone", "west"),
		wantType:     "gpu",
		wantSelector: sel("pool", "cpu", "accelerator", "amd", "zone", "west"),
		wantRequests: "cpu=1,memory=1Gi",
		wantLimits:   "cpu=16,memory=1Gi,nvidia.com/gpu=2",
		wantErrs: []string{
			"FieldValueInvalid instance_type",
			"FieldValueInvalid instance_type",
			"FieldValueInvalid resources.limits[cpu]",
		},
	},
	{
		name:         "conflict with a custom default reported at the missing field",
		catalog:      []*instancetype.InstanceType{newType(instancetype.DefaultName, sel("pool", "default"), rl("cpu", "1"), rl("cpu", "1"))},
		w:            &workload.Workload{Kind: workload.ComputeJob},
		extension:    sel("pool", "ml"),
		wantType:     instancetype.DefaultName,
		wantSelector: sel("pool", "ml"),
		wantRequests: "cpu=1",
		wantLimits:   "cpu=1",
		wantErrs:     []string{"FieldValueInvalid resources.instance_type"},
	},
}

func TestResolve(t *testing.T) {
	standard := NewCatalog(cpuSmall(), myInstanceType(), gpuType())
	for _, tt := range resolveTests {
		t.Run(tt.name, func(t *testing.T) {
			c := standard
			if tt.catalog != nil {
				c = NewCatalog(tt.catalog...)
			}
			p, errs := Resolve(c, tt.w, tt.root, Options{NodeSelector: tt.extension})
			if got := errText(errs); !slices.Equal(got, tt.wantErrs) {
				t.Errorf("Resolve errors = %q; want %q\n%v", got, tt.wantErrs, errs)
			}
			w := tt.w
			if w == nil {
				w = &workload.Workload{}
			}
			if p.Kind != w.Kind || p.Name != w.Name {
				t.Errorf("Resolve kind, name = %q, %q; want %q, %q", p.Kind, p.Name, w.Kind, w.Name)
			}
			if p.InstanceType != tt.wantType || p.BuiltIn != tt.wantBuiltIn {
				t.Errorf("Resolve instance type = %q (built-in %v); want %q (built-in %v)",
					p.InstanceType, p.BuiltIn, tt.wantType, tt.wantBuiltIn)
			}
			if !maps.Equal(p.NodeSelector(), tt.wantSelector) {
				t.Errorf("Resolve selector = %v; want %v", p.NodeSelector(), tt.wantSelector)
			}
			if got := listText(p.Requests()); got != tt.wantRequests {
				t.Errorf("Resolve requests = %s; want %s", got, tt.wantRequests)
			}
			if got := listText(p.Limits()); got != tt.wantLimits {
				t.Errorf("Resolve limits = %s; want %s", got, tt.wantLimits)
			}
		})
	}
}

// TestResolveDetails checks the messages users read, for the rules whose wording the
// package documents.
func TestResolveDetails(t *testing.T) {
	c := NewCatalog(cpuSmall(), gpuType())
	tests := []struct {
		w         *workload.Workload
		extension map[string]string
		want      []string
	}{
		{
			w: &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmall", Resources: &instancetype.ResourceRequirements{
				Requests: rl("cpu", "100m"), Limits: rl("cpu", "4"),
			}},
			want: []string{`resources.limits[cpu]: Invalid value: "4": must be less than or equal to the cpu limit of instance type "cpusmall" (1)`},
		},
		{
			w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
				Limits: rl("nvidia.com/gpu", "1"),
			}},
			want: []string{`resources.limits[nvidia.com/gpu]: Invalid value: "1": instance type "defaultinstancetype" provides no nvidia.com/gpu`},
		},
		{
			w: &workload.Workload{Kind: workload.OnlineDeployment, Resources: &instancetype.ResourceRequirements{
				Requests: rl("memory", "3Gi"), Limits: rl("memory", "2G"),
			}},
			want: []string{`resources.requests[memory]: Invalid value: "3Gi": must be less than or equal to the memory limit (2G)`},
		},
		{
			w:         &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "gpu"},
			extension: sel("pool", "cpu"),
			want:      []string{`instance_type: Invalid value: "gpu": instance type "gpu" sets pool=gpu but the extension's nodeSelector sets pool=cpu; no node can match both`},
		},
		{
			w:    &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "cpusmal"},
			want: []string{`instance_type: Not found: "cpusmal": did you mean "cpusmall"?`},
		},
		{
			w:    &workload.Workload{Kind: workload.ComputeJob, InstanceType: "xyz"},
			want: []string{`resources.instance_type: Not found: "xyz": known instance types: "cpusmall", "defaultinstancetype", "gpu"`},
		},
	}
	for _, tt := range tests {
		_, errs := Resolve(c, tt.w, nil, Options{NodeSelector: tt.extension})
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Resolve(%+v) errors =\n\t%s\nwant\n\t%s", tt.w, strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
		}
	}
}

// TestPlacementHandsOutCopies checks that the maps a placement hands out are the caller's:
// writing them changes neither the workload, nor the extension's selector, nor the catalog.
func TestPlacementHandsOutCopies(t *testing.T) {
	it := myInstanceType()
	c := NewCatalog(it)
	ext := sel("mylabel", "mylabelvalue")
	w := &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: it.Name, Resources: &instancetype.ResourceRequirements{
		Requests: rl("cpu", "1"),
	}}
	p, errs := Resolve(c, w, nil, Options{NodeSelector: ext})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	p.NodeSelector()["probe"] = "x"
	p.Requests()["probe"] = instancetype.Amount{}
	p.Limits()["probe"] = instancetype.Amount{}
	for _, m := range []map[string]string{ext, it.Spec.NodeSelector} {
		if _, ok := m["probe"]; ok {
			t.Errorf("writing NodeSelector() changed %v", m)
		}
	}
	for _, l := range []instancetype.ResourceList{w.Resources.Requests, it.Spec.Resources.Limits, it.Spec.Resources.Requests} {
		if _, ok := l["probe"]; ok {
			t.Errorf("writing Requests() or Limits() changed %v", listText(l))
		}
	}
	if len(ext) != 1 || len(it.Spec.NodeSelector) != 1 || len(w.Resources.Limits) != 0 {
		t.Error("Resolve modified its arguments")
	}
	if got := p.NodeSelector(); len(got) != 1 || got["mylabel"] != "mylabelvalue" {
		t.Errorf("NodeSelector() = %v", got)
	}
	if !p.Matches(map[string]string{"mylabel": "mylabelvalue", "other": "x"}) || p.Matches(map[string]string{"other": "x"}) {
		t.Errorf("Matches disagrees with NodeSelector() %v", p.NodeSelector())
	}
}

// With no selector anywhere (the built-in default, no extension selector), the placement's
// node selector is still a map the caller may write to, as for a pod it builds.
func TestEmptyNodeSelectorIsWritable(t *testing.T) {
	p, errs := Resolve(nil, &workload.Workload{Kind: workload.OnlineDeployment}, nil, Options{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	m := p.NodeSelector()
	if m == nil || len(m) != 0 {
		t.Fatalf("NodeSelector() = %#v; want an empty map", m)
	}
	m["added"] = "by the caller" // must not panic
	if len(p.NodeSelector()) != 0 {
		t.Errorf("writing NodeSelector() changed the placement: %v", p.NodeSelector())
	}
}

// TestResolveErrorsStayShort feeds Resolve and Store.Resolve megabytes of text in every
// place an error can repeat it: the errors must stay short.
func TestResolveErrorsStayShort(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	hugeQuantity := strings.Repeat("0", 1<<20) + "1" // a valid quantity: 1
	var types []*instancetype.InstanceType
	for i := range 20 {
		it := myInstanceType()
		it.Name = fmt.Sprintf("%s-%d", huge[:100_000], i)
		it.Spec.NodeSelector = map[string]string{huge[:63]: huge}
		types = append(types, it)
	}
	store := NewStore(types...)
	conflict := Options{NodeSelector: map[string]string{huge[:63]: "other-" + huge}}
	const limit = 8 << 10
	check := func(what string, errs field.ErrorList) {
		t.Helper()
		if len(errs) == 0 {
			t.Errorf("%s: no error", what)
		}
		for _, e := range errs {
			if n := len(e.Error()); n > limit {
				t.Errorf("%s: an error of %d bytes: %.200s...", what, n, e.Error())
			}
		}
	}
	_, errs := store.Resolve(&workload.Workload{Kind: workload.OnlineDeployment, InstanceType: huge}, nil, Options{})
	check("unknown 1 MB name among long names", errs)
	_, errs = store.Resolve(&workload.Workload{Kind: workload.OnlineDeployment, InstanceType: types[3].Name}, nil, conflict)
	check("conflicting 1 MB selector values", errs)
	_, errs = store.Resolve(&workload.Workload{Kind: workload.OnlineDeployment, InstanceType: types[3].Name, Resources: &instancetype.ResourceRequirements{
		Requests: rl("cpu", "100"+hugeQuantity[len(hugeQuantity)-10:]),
		Limits:   rl("cpu", hugeQuantity+"0000", "memory", hugeQuantity+"000000000000"),
	}}, nil, Options{})
	check("limits of 1 MB of digits above the type's", errs)
	c := NewCatalog(types...)
	if _, err := c.Lookup(huge); err == nil || len(err.Error()) > limit {
		t.Errorf("Lookup(1 MB): an error of %d bytes", len(err.Error()))
	}
}
