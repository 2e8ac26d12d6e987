package validate_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// Package-level sinks keep the compiler from optimising the calls away.
var sinkErrs field.ErrorList

// seedType is the instance type of the source document (my_instance_type.yaml), with a
// nodeSelector and a GPU.
func seedType() *instancetype.InstanceType {
	return &instancetype.InstanceType{
		TypeMeta:   instancetype.Default().TypeMeta,
		ObjectMeta: metaName("myinstancetypename"),
		Spec: instancetype.InstanceTypeSpec{
			NodeSelector: map[string]string{"mylabel": "mylabelvalue"},
			Resources: instancetype.ResourceRequirements{
				Limits: instancetype.ResourceList{
					"cpu":            instancetype.MustParseAmount("1"),
					"nvidia.com/gpu": instancetype.MustParseAmount("1"),
					"memory":         instancetype.MustParseAmount("2Gi"),
				},
				Requests: instancetype.ResourceList{
					"cpu":    instancetype.MustParseAmount("700m"),
					"memory": instancetype.MustParseAmount("1500Mi"),
				},
			},
		},
	}
}

func TestInstanceTypeAllocs(t *testing.T) {
	it := seedType()
	item := field.NewPath("items").Index(1)
	ext := map[string]string{"mylabel": "mylabelvalue", "kubernetes.io/os": "linux"}
	for _, tc := range []struct {
		name string
		path *field.Path
		opts resolve.Options
	}{
		{"no extension selector", nil, resolve.Options{}},
		{"list item", item, resolve.Options{}},
		{"extension selector", nil, resolve.Options{NodeSelector: ext}},
		{"strict subset", item, resolve.Options{NodeSelector: ext, StrictSubset: true}},
	} {
		if errs := validate.InstanceType(it, tc.path, tc.opts); len(errs) != 0 {
			t.Fatalf("%s: InstanceType(seed) = %v; want no findings", tc.name, errs)
		}
		if n := testing.AllocsPerRun(100, func() { sinkErrs = validate.InstanceType(it, tc.path, tc.opts) }); n != 0 {
			t.Errorf("%s: InstanceType(seed) makes %v allocations per run; want 0", tc.name, n)
		}
	}
	def := instancetype.Default()
	if n := testing.AllocsPerRun(100, func() { sinkErrs = validate.InstanceType(def, nil, resolve.Options{}) }); n != 0 {
		t.Errorf("InstanceType(Default()) makes %v allocations per run; want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { sinkErrs = validate.NodeSelector(ext, nil) }); n != 0 {
		t.Errorf("NodeSelector(valid) makes %v allocations per run; want 0", n)
	}
}

func TestWorkloadAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    *workload.Workload
	}{
		{"deployment with resources", gpuDeployment()},
		{"deployment on its type", &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "myinstancetypename"}},
		{"mlflow deployment", &workload.Workload{Kind: workload.OnlineDeployment, InstanceType: "mlflow", MLflow: true}},
		{"job on the default", &workload.Workload{Kind: workload.ComputeJob}},
	} {
		if errs := validate.Workload(testCatalog, tc.w, nil, resolve.Options{}); errs != nil {
			t.Fatalf("%s: Workload = %v; want nil", tc.name, errs)
		}
		if n := testing.AllocsPerRun(100, func() { sinkErrs = validate.Workload(testCatalog, tc.w, nil, resolve.Options{}) }); n != 0 {
			t.Errorf("%s: Workload makes %v allocations per run; want 0", tc.name, n)
		}
	}
}
