package webhook_test

import (
	"context"
	"fmt"

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
