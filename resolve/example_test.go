package resolve_test

import (
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/workload"
)

// list builds a resource list from name, text pairs.
func list(kv ...string) instancetype.ResourceList {
	l := instancetype.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[instancetype.ResourceName(kv[i])] = instancetype.MustParseAmount(kv[i+1])
	}
	return l
}

// sourceList returns the instance types of examples/my_instance_type_list.yaml.
func sourceList() []*instancetype.InstanceType {
	return []*instancetype.InstanceType{
		{
			ObjectMeta: metav1.ObjectMeta{Name: "cpusmall"},
			Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
				Requests: list("cpu", "100m", "memory", "100Mi"),
				Limits:   list("cpu", "1", "nvidia.com/gpu", "0", "memory", "1Gi"),
			}},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "defaultinstancetype"},
			Spec: instancetype.InstanceTypeSpec{Resources: instancetype.ResourceRequirements{
				Requests: list("cpu", "1", "memory", "1Gi"),
				Limits:   list("cpu", "1", "nvidia.com/gpu", "0", "memory", "1Gi"),
			}},
		},
	}
}

// ResourceName stands for corev1.ResourceName, which this module does not import.
type ResourceName string

// Resolve the deployment of examples/deployment_resources.yaml against the instance types
// of examples/my_instance_type_list.yaml: it names cpusmall and brings its own resources,
// which stay within cpusmall's limits.
func Example() {
	catalog := resolve.NewCatalog(sourceList()...)
	blue := &workload.Workload{
		Kind:         workload.OnlineDeployment,
		Name:         "blue",
		InstanceType: "cpusmall",
		Resources: &instancetype.ResourceRequirements{
			Requests: list("cpu", "0.1", "memory", "0.2Gi"),
			Limits:   list("cpu", "0.2", "memory", "0.5Gi"),
		},
	}
	p, errs := catalog.Resolve(blue, nil, resolve.Options{})
	if len(errs) > 0 {
		fmt.Println(errs.ToAggregate())
		return
	}
	fmt.Println("instance type:", p.InstanceType)
	fmt.Println("node selector:", p.NodeSelector())
	fmt.Println("requests: cpu", p.Request("cpu"), "memory", p.Request("memory"))
	fmt.Println("limits:   cpu", p.Limit("cpu"), "memory", p.Limit("memory"))

	// A controller converts the lists for its pod spec without parsing again:
	// corev1.ResourceList(instancetype.Quantities[corev1.ResourceName](p.Limits())).
	limits := instancetype.Quantities[ResourceName](p.Limits())
	cpu, memory := limits["cpu"], limits["memory"]
	fmt.Println("pod limits:", cpu.MilliValue(), "millicores,", memory.Value(), "bytes")
	// Output:
	// instance type: cpusmall
	// node selector: map[]
	// requests: cpu 0.1 memory 0.2Gi
	// limits:   cpu 0.2 memory 0.5Gi
	// pod limits: 200 millicores, 536870912 bytes
}

// A catalog always holds defaultinstancetype; a custom one overrides the built-in one.
func ExampleNewCatalog() {
	builtIn := resolve.NewCatalog()
	fmt.Println(builtIn.Names(), builtIn.IsBuiltIn("defaultinstancetype"))

	catalog := resolve.NewCatalog(sourceList()...)
	def, _ := catalog.Get("defaultinstancetype")
	fmt.Println(catalog.Names(), catalog.IsBuiltIn("defaultinstancetype"))
	fmt.Println("default cpu limit:", def.Spec.Resources.Limits["cpu"])
	// Output:
	// [defaultinstancetype] true
	// [cpusmall defaultinstancetype] false
	// default cpu limit: 1
}

// Lookup names the close matches of an unknown name.
func ExampleCatalog_Lookup() {
	catalog := resolve.NewCatalog(sourceList()...)
	_, err := catalog.Lookup("cpusmal")
	fmt.Println(err)

	var nf *resolve.NotFoundError
	if errors.As(err, &nf) {
		fmt.Println(nf.Suggestions)
	}

	_, err = catalog.Lookup("gpularge")
	fmt.Println(err)
	// Output:
	// resolve: instance type "cpusmal" not found; did you mean "cpusmall"?
	// [cpusmall]
	// resolve: instance type "gpularge" not found; known instance types: "cpusmall", "defaultinstancetype"
}

// Resolve reports every reason a workload cannot be placed, at its field, and still
// returns what it could work out.
func ExampleResolve() {
	gpu := &instancetype.InstanceType{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: instancetype.InstanceTypeSpec{
			NodeSelector: map[string]string{"pool": "gpu"},
			Resources: instancetype.ResourceRequirements{
				Requests: list("cpu", "4", "memory", "16Gi"),
				Limits:   list("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "1"),
			},
		},
	}
	catalog := resolve.NewCatalog(gpu)
	train := &workload.Workload{
		Kind:         workload.OnlineDeployment,
		Name:         "train",
		InstanceType: "gpu",
		Resources: &instancetype.ResourceRequirements{
			Requests: list("cpu", "4", "memory", "16Gi"),
			Limits:   list("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "2"),
		},
	}
	extension := map[string]string{"pool": "cpu"}
	p, errs := resolve.Resolve(catalog, train, field.NewPath("deployments").Index(0), resolve.Options{NodeSelector: extension})
	for _, err := range errs {
		fmt.Println(err)
	}
	fmt.Println("placement:", p.InstanceType, p.NodeSelector())
	// Output:
	// deployments[0].instance_type: Invalid value: "gpu": instance type "gpu" sets pool=gpu but the extension's nodeSelector sets pool=cpu; no node can match both
	// deployments[0].resources.limits[nvidia.com/gpu]: Invalid value: "2": must be less than or equal to the nvidia.com/gpu limit of instance type "gpu" (1)
	// placement: gpu map[pool:cpu]
}

// A Store serves a controller: informer events update it while reconcilers resolve.
func ExampleStore() {
	store := resolve.NewStore()
	// informer.AddEventHandler(store) delivers these:
	for _, it := range sourceList() {
		store.OnAdd(it, true)
	}

	job := &workload.Workload{Kind: workload.ComputeJob, Name: "hello"}
	p, _ := store.Resolve(job, nil, resolve.Options{NodeSelector: map[string]string{"pool": "ml"}})
	fmt.Println(p.InstanceType, p.BuiltIn, p.NodeSelector(), p.Limit("cpu"))

	store.Delete("defaultinstancetype") // the built-in definition comes back
	p, _ = store.Resolve(job, nil, resolve.Options{NodeSelector: map[string]string{"pool": "ml"}})
	fmt.Println(p.InstanceType, p.BuiltIn, p.NodeSelector(), p.Limit("cpu"))
	fmt.Println(store.Catalog().Names())
	// Output:
	// defaultinstancetype false map[pool:ml] 1
	// defaultinstancetype true map[pool:ml] 2
	// [cpusmall defaultinstancetype]
}

// A deployment whose limits name some resources but not others is capped by its instance
// type's limits for the rest: the effective limits are its own, completed from the type's.
func ExamplePlacement_Limits() {
	catalog := resolve.NewCatalog(sourceList()...)
	partial := &workload.Workload{
		Kind:         workload.OnlineDeployment,
		InstanceType: "cpusmall",
		Resources: &instancetype.ResourceRequirements{
			Requests: list("cpu", "100m", "memory", "100Mi"),
			Limits:   list("cpu", "0.2"),
		},
	}
	p, _ := catalog.Resolve(partial, nil, resolve.Options{})
	limits := p.Limits()
	fmt.Println("cpu", limits["cpu"], "memory", limits["memory"])
	// Output:
	// cpu 0.2 memory 1Gi
}
