package integration_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/client/manifests"
)

// policyObjects decodes manifests.Policy: the policy and its binding.
func policyObjects(t *testing.T) (*admissionregistrationv1.ValidatingAdmissionPolicy, *admissionregistrationv1.ValidatingAdmissionPolicyBinding) {
	t.Helper()
	docs := bytes.Split(manifests.Policy, []byte("\n---\n"))
	if len(docs) != 2 {
		t.Fatalf("manifests.Policy has %d documents; want 2", len(docs))
	}
	var p admissionregistrationv1.ValidatingAdmissionPolicy
	var b admissionregistrationv1.ValidatingAdmissionPolicyBinding
	if err := yaml.UnmarshalStrict(docs[0], &p); err != nil {
		t.Fatalf("policy: %v", err)
	}
	if err := yaml.UnmarshalStrict(docs[1], &b); err != nil {
		t.Fatalf("binding: %v", err)
	}
	return &p, &b
}

var policyInstalled bool

// installPolicy creates the policy and its binding in policyEnv, once, and waits until
// the API server enforces them: until an instance type with no cpu limit is refused.
func installPolicy(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	cs := clientset(t, policyEnv.Start(t))
	if policyInstalled {
		return cs
	}
	p, b := policyObjects(t)
	api := cs.AdmissionregistrationV1()
	created, err := api.ValidatingAdmissionPolicies().Create(stepContext(t), p, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating the policy: %v", err)
	}
	if _, err := api.ValidatingAdmissionPolicyBindings().Create(stepContext(t), b, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the binding: %v", err)
	}
	probe := valid("policy-probe")
	delete(limits(probe), "cpu")
	body := mustJSON(probe)
	eventually(t, 30*time.Second, func() error {
		if err := createRaw(stepContext(t), cs, body, false); err == nil || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy") {
			return fmt.Errorf("the policy is not enforced yet: %v", err)
		}
		return nil
	})
	// The API server type-checks the policy's expressions against the CRD; a warning here
	// means an expression would fail at run time.
	got, err := api.ValidatingAdmissionPolicies().Get(stepContext(t), created.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tc := got.Status.TypeChecking; tc != nil && len(tc.ExpressionWarnings) > 0 {
		t.Errorf("type-checking warnings: %+v", tc.ExpressionWarnings)
	}
	policyInstalled = true
	return cs
}

// TestPolicyDenies: the policy refuses what it should with its messages, each naming its
// field. A policy stops at its first failed validation, so each case has one mistake.
func TestPolicyDenies(t *testing.T) {
	cs := installPolicy(t)
	tests := []struct {
		name   string
		change func(object)
		want   string
	}{
		{"no-memory-limit", deleteIn(limits, "memory"), "spec.resources.limits[memory]: memory is required"},
		{"zero-cpu-request", setIn(requests, "cpu", "0"), "spec.resources.requests[cpu]: cpu must be a quantity greater than zero"},
		{"half-gpu", setIn(limits, "nvidia.com/gpu", "0.5"), "spec.resources.limits: extended resources such as nvidia.com/gpu must be whole numbers"},
		{"gpu-request", setIn(requests, "nvidia.com/gpu", 1), "spec.resources.requests: requests may name cpu and memory only"},
		{"big-request", setIn(requests, "memory", "3Gi"), "spec.resources.requests[memory]: the memory request must be less than or equal to the memory limit"},
		{"bad-label-value", setIn(spec, "nodeSelector", object{"pool": "a b"}), "spec.nodeSelector: values must be label values"},
		{"bool-label-value", setIn(spec, "nodeSelector", object{"pool": true}), "ValidatingAdmissionPolicy"},
	}
	for _, tt := range tests {
		o := valid(tt.name)
		tt.change(o)
		err := createRaw(stepContext(t), cs, mustJSON(o), true)
		if err == nil {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), "ValidatingAdmissionPolicy 'instancetypes.amlarc.azureml.com'") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q\ndoes not come from the policy or does not say %q", tt.name, err, tt.want)
		}
	}
	if err := createRaw(stepContext(t), cs, []byte(validJSON("policy-ok")), true); err != nil {
		t.Errorf("a valid instance type refused: %v", err)
	}
}

// TestPolicyAgreesWithValidate: the policy, on a CRD with no schema, against package
// validate, on the same table cases and generated instance types as the CRD.
func TestPolicyAgreesWithValidate(t *testing.T) {
	cs := installPolicy(t)
	t.Run("table", func(t *testing.T) {
		for _, c := range diffCases {
			agree(t, cs, c.name, c.body(), c.real, c.policyDiffers)
		}
	})
	t.Run("generated", func(t *testing.T) { checkGenerated(t, cs) })
	t.Run("quantities", func(t *testing.T) { checkQuantities(t, cs) })
}

// mustJSON encodes a test object, which cannot fail for the values the tests use.
func mustJSON(o object) []byte {
	b, err := json.Marshal(o)
	if err != nil {
		panic(fmt.Sprintf("encoding a test object: %v", err))
	}
	return b
}
