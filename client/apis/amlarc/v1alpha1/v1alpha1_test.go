package v1alpha1_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/client/apis/amlarc/v1alpha1"
	applyv1alpha1 "github.com/amlarc-go/instancetypes/client/applyconfiguration/amlarc/v1alpha1"
	"github.com/amlarc-go/instancetypes/client/clientset/versioned/fake"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// The aliases are the instancetype types themselves: no conversion between them.
var _ *instancetype.InstanceType = (*v1alpha1.InstanceType)(nil)

// TestFakeClientset: the generated fake clientset creates, applies and extracts instance
// types (which needs the apply configurations' schema, kubernetes/kubernetes#126850).
func TestFakeClientset(t *testing.T) {
	cs := fake.NewClientset(instancetype.Default())
	api := cs.AmlarcV1alpha1().InstanceTypes()
	ctx := t.Context()

	small := &v1alpha1.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: "cpusmall"}, Spec: instancetype.Default().Spec}
	if _, err := api.Create(ctx, small, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	limits := instancetype.ResourceList{"cpu": instancetype.MustParseAmount("4"), "memory": instancetype.MustParseAmount("8Gi")}
	applied, err := api.Apply(ctx, applyv1alpha1.InstanceType("gpu").WithSpec(applyv1alpha1.InstanceTypeSpec().
		WithNodeSelector(map[string]string{"pool": "gpu"}).
		WithResources(applyv1alpha1.ResourceRequirements().WithLimits(limits).WithRequests(limits))),
		metav1.ApplyOptions{FieldManager: "test"})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if applied.Spec.Resources.Limits["cpu"].String() != "4" || applied.Spec.NodeSelector["pool"] != "gpu" {
		t.Errorf("Apply returned %+v", applied.Spec)
	}
	extracted, err := applyv1alpha1.ExtractInstanceType(applied, "test")
	if err != nil {
		t.Fatalf("ExtractInstanceType: %v", err)
	}
	if extracted.Spec == nil || extracted.Spec.NodeSelector["pool"] != "gpu" {
		t.Errorf("ExtractInstanceType: %+v; want the applied node selector", extracted.Spec)
	}
	list, err := api.List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 3 {
		t.Fatalf("List: %d items, %v; want 3", len(list.Items), err)
	}
}
