package validate_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// An instance type with a mistake in most fields: every one is reported, each at its path,
// with what to do about it.
func ExampleInstanceType() {
	it := &instancetype.InstanceType{
		ObjectMeta: metav1.ObjectMeta{Name: "GPU_Small"},
		Spec: instancetype.InstanceTypeSpec{
			NodeSelector: map[string]string{"pool": "gpu"},
			Resources: instancetype.ResourceRequirements{
				Requests: instancetype.ResourceList{
					"cpu":            instancetype.ParseAmount("2"),
					"memory":         instancetype.ParseAmount("2Gx"),
					"nvidia.com/gpu": instancetype.ParseAmount("1"),
				},
				Limits: instancetype.ResourceList{
					"cpu":    instancetype.ParseAmount("1"),
					"memory": instancetype.ParseAmount("0"),
					"gpu":    instancetype.ParseAmount("1"),
				},
			},
		},
	}
	opts := resolve.Options{NodeSelector: map[string]string{"pool": "ml"}} // the extension's
	for _, err := range validate.InstanceType(it, nil, opts) {
		fmt.Println(err)
	}
	// Output:
	// metadata.name: Invalid value: "GPU_Small": must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as "gpu-small"; did you mean "gpu-small"?
	// spec.nodeSelector[pool]: Invalid value: "gpu": the extension's nodeSelector sets "pool" to "ml", so no node can match both; use "ml" or remove the key
	// spec.resources.limits[gpu]: Unsupported value: "gpu": supported values: "cpu", "memory", or a fully qualified extended resource such as "nvidia.com/gpu"; did you mean "nvidia.com/gpu"?
	// spec.resources.limits[memory]: Invalid value: "0": must be greater than zero
	// spec.resources.requests[memory]: Invalid value: "2Gx": unknown suffix "x" (use n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei, or an exponent such as e3); write a quantity such as "1500Mi" or "2Gi"
	// spec.resources.requests[nvidia.com/gpu]: Forbidden: extended resources are set in limits only: move nvidia.com/gpu to limits
	// spec.resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1
}

// Instance types given together must have distinct names; a custom defaultinstancetype
// overrides the built-in one and is no duplicate.
func ExampleInstanceTypes() {
	small := func(name string) *instancetype.InstanceType {
		it := instancetype.Default()
		it.Name = name
		return it
	}
	items := field.NewPath("items")
	srcs := []validate.Source{
		{InstanceType: small("defaultinstancetype"), Origin: "types.yaml:1"},
		{InstanceType: small("cpusmall"), Path: items.Index(0), Origin: "list.yaml:5"},
		{InstanceType: small("cpusmall"), Path: items.Index(1), Origin: "list.yaml:14"},
	}
	for i, errs := range validate.InstanceTypes(srcs, resolve.Options{}) {
		fmt.Printf("%s: %d findings\n", srcs[i].Origin, len(errs))
		for _, err := range errs {
			fmt.Println(err)
		}
	}
	// Output:
	// types.yaml:1: 0 findings
	// list.yaml:5: 1 findings
	// items[0].metadata.name: Duplicate value: "cpusmall": instance type names must be unique; this definition is not in effect: the one at list.yaml:14 (items[1]) replaces it, as the last one applied wins: rename or remove one of them
	// list.yaml:14: 0 findings
}

// Deployments are checked against the catalog of instance types: here an MLflow model
// deployment that names no instance type, so gets the built-in default, which is too
// small; and one whose own resources break R8 and name a type that does not exist.
func ExampleWorkload() {
	catalog := resolve.NewCatalog(&instancetype.InstanceType{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu-small"},
		Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": instancetype.ParseAmount("1"), "memory": instancetype.ParseAmount("4Gi")},
			Limits: instancetype.ResourceList{"cpu": instancetype.ParseAmount("2"), "memory": instancetype.ParseAmount("8Gi"),
				"nvidia.com/gpu": instancetype.ParseAmount("1")},
		}},
	})
	mlflow := &workload.Workload{Kind: workload.OnlineDeployment, Name: "blue", MLflow: true}
	for _, err := range validate.Workload(catalog, mlflow, nil, resolve.Options{}) {
		fmt.Println(err)
	}
	green := &workload.Workload{
		Kind: workload.OnlineDeployment, Name: "green", InstanceType: "gpu-smal",
		Resources: &instancetype.ResourceRequirements{
			Requests: instancetype.ResourceList{"cpu": instancetype.ParseAmount("500m"), "memory": instancetype.ParseAmount("512k")},
			Limits:   instancetype.ResourceList{"nvidia.com/gpu": instancetype.ParseAmount("1")},
		},
	}
	for _, err := range validate.Workload(catalog, green, nil, resolve.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// instance_type: Invalid value: "defaultinstancetype": an MLflow model deployment needs a cpu request of at least 2, but instance type "defaultinstancetype" (the default, as instance_type is not set) requests 100m; choose an instance type that requests more, or set resources.requests.cpu
	// instance_type: Invalid value: "defaultinstancetype": an MLflow model deployment needs a memory request of at least 4G (4 GB), but instance type "defaultinstancetype" (the default, as instance_type is not set) requests 2Gi; choose an instance type that requests more, or set resources.requests.memory
	// instance_type: Not found: "gpu-smal": did you mean "gpu-small"?
	// resources.limits[cpu]: Required value: set it when asking for nvidia.com/gpu, to a quantity such as "500m" or "2"
	// resources.limits[memory]: Required value: set it when asking for nvidia.com/gpu, to a quantity such as "1500Mi" or "2Gi"
	// resources.requests[memory]: Invalid value: "512k": must be at least 1M (1 MB, 10^6 bytes)
}

// Resolve gives the placement with the findings: a job on a GPU type, checked without the
// cluster's catalog (NamesUnchecked), so that a name the catalog lacks is no finding but a
// VM size, which cannot name an instance type, is.
func ExampleResolve() {
	catalog := resolve.NewCatalog(&instancetype.InstanceType{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu-small"},
		Spec: instancetype.InstanceTypeSpec{
			NodeSelector: map[string]string{"accelerator": "t4"},
			Resources: instancetype.ResourceRequirements{
				Requests: instancetype.ResourceList{"cpu": instancetype.ParseAmount("1"), "memory": instancetype.ParseAmount("4Gi")},
				Limits:   instancetype.ResourceList{"cpu": instancetype.ParseAmount("2"), "memory": instancetype.ParseAmount("8Gi"), "nvidia.com/gpu": instancetype.ParseAmount("1")},
			},
		},
	})
	opts := resolve.Options{NodeSelector: map[string]string{"pool": "ml"}, NamesUnchecked: true}
	for _, name := range []string{"gpu-small", "gpu-large", "Standard_NC6s_v3"} {
		job := &workload.Workload{Kind: workload.ComputeJob, Name: "train", InstanceType: name}
		p, errs := validate.Resolve(catalog, job, field.NewPath("jobs", "train"), opts)
		fmt.Println(p.InstanceType, p.Found, p.NodeSelector(), len(errs))
		for _, err := range errs {
			fmt.Println("  ", err.Field, err.Type)
		}
	}
	// Output:
	// gpu-small true map[accelerator:t4 pool:ml] 0
	// gpu-large false map[pool:ml] 0
	// Standard_NC6s_v3 false map[pool:ml] 1
	//    jobs.train.resources.instance_type Invalid value
}

// The extension's own node selector, as given on a command line, is checked on its own.
func ExampleNodeSelector() {
	ext := map[string]string{"pool": "ml", "node type": "gpu"}
	for _, err := range validate.NodeSelector(ext, field.NewPath("--node-selector")) {
		fmt.Println(err)
	}
	// Output:
	// --node-selector[node type]: Invalid value: "node type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
}

// The items of a list are checked at items[i], their names unique within the list.
func ExampleInstanceTypeList() {
	cpusmall := instancetype.Default()
	cpusmall.Name = "cpusmall"
	cpusmall.Spec.Resources.Limits["nvidia.com/gpu"] = instancetype.ParseAmount("0.5")
	list := &instancetype.InstanceTypeList{Items: []instancetype.InstanceType{*cpusmall, *cpusmall}}
	for _, err := range validate.InstanceTypeList(list, nil, resolve.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// items[0].metadata.name: Duplicate value: "cpusmall": instance type names must be unique; this definition is not in effect: the one at items[1] replaces it, as the last one applied wins: rename or remove one of them
	// items[0].spec.resources.limits[nvidia.com/gpu]: Invalid value: "0.5": must be a whole number, such as 1
	// items[1].spec.resources.limits[nvidia.com/gpu]: Invalid value: "0.5": must be a whole number, such as 1
}
