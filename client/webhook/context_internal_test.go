package webhook

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

const (
	goodObject = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
 "spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2","memory":"2Gi"}}}}`
	badObject = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
 "spec":{"resources":{"requests":{"cpu":"0","memory":"1Gi"},"limits":{"cpu":"2","memory":"2Gi"}}}}`
)

// TestReviewStopsWhenContextEnds: a context that ends during any stage stops the review at
// the next checkpoint, with a denial of reason Timeout; no later stage runs.
func TestReviewStopsWhenContextEnds(t *testing.T) {
	stages := []string{stageRead, stageDecoded, stageValidated, stageOldObject, stageCompared}
	req := &admissionv1.AdmissionRequest{
		Operation: admissionv1.Update,
		Resource:  metav1.GroupVersionResource{Group: "amlarc.azureml.com", Version: "v1alpha1", Resource: "instancetypes"},
		Object:    runtime.RawExtension{Raw: []byte(badObject)}, OldObject: runtime.RawExtension{Raw: []byte(badObject)},
	}
	defer func() { testHookStage = nil }()

	// Without a cancellation, every stage is reached, in order.
	var seen []string
	testHookStage = func(s string) { seen = append(seen, s) }
	if r := (&Handler{}).Review(context.Background(), req); !r.Allowed {
		t.Fatalf("the unchanged update was denied: %v", r.Result.Message)
	}
	if !slices.Equal(seen, stages) {
		t.Fatalf("stages %q; want %q", seen, stages)
	}

	for i, stage := range stages {
		ctx, cancel := context.WithCancel(context.Background())
		seen = nil
		testHookStage = func(s string) {
			seen = append(seen, s)
			if s == stage {
				cancel() // the context ends while this stage runs
			}
		}
		res := &Result{}
		r := (&Handler{}).review(ctx, req, res)
		cancel()
		if r.Allowed || r.Result.Reason != metav1.StatusReasonTimeout || res.Outcome != Canceled {
			t.Errorf("canceled at %s: allowed %v, result %+v, outcome %s; want a Timeout denial", stage, r.Allowed, r.Result, res.Outcome)
		}
		if !slices.Equal(seen, stages[:i+1]) {
			t.Errorf("canceled at %s: stages %q were reached; want %q", stage, seen, stages[:i+1])
		}
	}
}

// TestReviewTime: the API server's timeout parameter sets the deadline, up to
// MaxReviewTime.
func TestReviewTime(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  time.Duration
	}{
		{"", MaxReviewTime},
		{"?timeout=10s", 10 * time.Second},
		{"?timeout=1s", time.Second},
		{"?timeout=1h", MaxReviewTime},
		{"?timeout=-5s", MaxReviewTime},
		{"?timeout=soon", MaxReviewTime},
	} {
		r := httptest.NewRequest("POST", "/validate"+tc.query, nil)
		if got := reviewTime(r); got != tc.want {
			t.Errorf("reviewTime(%q) = %v; want %v", tc.query, got, tc.want)
		}
	}
}
