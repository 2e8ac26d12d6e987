package instancetype_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// A controller registers the types in its scheme and decodes manifests with apimachinery's
// universal deserializer.
func ExampleAddToScheme() {
	scheme := runtime.NewScheme()
	if err := instancetype.AddToScheme(scheme); err != nil {
		panic(err)
	}
	manifest := []byte(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: myinstancetypename
spec:
  nodeSelector:
    mylabel: mylabelvalue
  resources:
    limits:
      cpu: "1"
      nvidia.com/gpu: 1
      memory: "2Gi"
    requests:
      cpu: "700m"
      memory: "1500Mi"
`)
	obj, gvk, err := serializer.NewCodecFactory(scheme).UniversalDeserializer().Decode(manifest, nil, nil)
	if err != nil {
		panic(err)
	}
	it := obj.(*instancetype.InstanceType)
	gpu, _ := it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU].Quantity()
	fmt.Println(gvk.Kind, it.Name)
	fmt.Println("requests:", it.Spec.Resources.Requests[instancetype.ResourceCPU], it.Spec.Resources.Requests[instancetype.ResourceMemory])
	fmt.Println("gpus:", gpu.Value())
	// Output:
	// InstanceType myinstancetypename
	// requests: 700m 1500Mi
	// gpus: 1
}

// Default returns the built-in instance type that workloads naming none get.
func ExampleDefault() {
	it := instancetype.Default()
	r := it.Spec.Resources
	fmt.Println(it.Name)
	fmt.Println("requests:", r.Requests[instancetype.ResourceCPU], r.Requests[instancetype.ResourceMemory])
	fmt.Println("limits:", r.Limits[instancetype.ResourceCPU], r.Limits[instancetype.ResourceMemory])

	// Each call returns a fresh copy: changing one changes no other.
	it.Spec.Resources.Limits[instancetype.ResourceCPU] = instancetype.MustParseAmount("4")
	fmt.Println("fresh:", instancetype.Default().Spec.Resources.Limits[instancetype.ResourceCPU])
	// Output:
	// defaultinstancetype
	// requests: 100m 2Gi
	// limits: 2 2Gi
	// fresh: 2
}

// An Amount tells a missing value from an empty one from a quantity.
func ExampleAmount() {
	var missing instancetype.Amount
	empty := instancetype.ParseAmount("")
	zero := instancetype.ParseAmount("0")
	fmt.Println(missing.IsSet(), empty.IsSet(), zero.IsSet())
	fmt.Println(missing.IsValid(), empty.IsValid(), zero.IsValid())
	q, _ := zero.Quantity()
	fmt.Println(q.IsZero())
	// Output:
	// false true true
	// false false true
	// true
}
