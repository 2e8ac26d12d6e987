package webhook_test

import (
	"context"
	"fmt"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/amlarc-go/instancetypes/client/webhook"
)

// Review is the webhook's logic without HTTP: a broken instance type is denied with every
// finding at its path.
func ExampleHandler_Review() {
	h := &webhook.Handler{}
	resp := h.Review(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Create,
		Resource:  metav1.GroupVersionResource{Group: "amlarc.azureml.com", Version: "v1alpha1", Resource: "instancetypes"},
		Object: runtime.RawExtension{Raw: []byte(`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType",
			"metadata": {"name": "gpu"},
			"spec": {"resources": {
				"requests": {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": 1},
				"limits": {"cpu": "2", "memory": "16Gi", "nvidia.com/gpu": 1}}}}`)},
	})
	fmt.Println("allowed:", resp.Allowed, resp.Result.Code, resp.Result.Reason)
	for _, c := range resp.Result.Details.Causes {
		fmt.Println(c.Field+":", c.Message)
	}
	// Output:
	// allowed: false 422 Invalid
	// spec.resources.requests[nvidia.com/gpu]: Forbidden: extended resources are set in limits only: remove nvidia.com/gpu from requests; limits sets it
	// spec.resources.requests[cpu]: Invalid value: "4": must be less than or equal to cpu limit of 2
}

// On UPDATE, findings at values the update leaves unchanged are admitted and come back as
// warnings (ratcheting): here an instance type stored with a zero cpu request loses its
// finalizer, so that it can be deleted.
func ExampleHandler_Review_ratcheting() {
	stored := `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType",
		"metadata": {"name": "old", "finalizers": ["example.com/cleanup"]},
		"spec": {"resources": {
			"requests": {"cpu": "0", "memory": "1Gi"},
			"limits": {"cpu": "1", "memory": "1Gi"}}}}`
	updated := strings.Replace(stored, `"finalizers": ["example.com/cleanup"]`, `"finalizers": []`, 1)
	h := &webhook.Handler{}
	resp := h.Review(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Update,
		Resource:  metav1.GroupVersionResource{Group: "amlarc.azureml.com", Version: "v1alpha1", Resource: "instancetypes"},
		Object:    runtime.RawExtension{Raw: []byte(updated)},
		OldObject: runtime.RawExtension{Raw: []byte(stored)},
	})
	fmt.Println("allowed:", resp.Allowed)
	for _, w := range resp.Warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// allowed: true
	// warning: 1 finding at a value unchanged since the stored object, so allowed; a change to that value must fix it
	// warning: unchanged: spec.resources.requests[cpu]: Invalid value: "0": must be greater than zero
}
