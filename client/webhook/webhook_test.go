package webhook_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/amlarc-go/instancetypes/client/webhook"
	"github.com/amlarc-go/instancetypes/validate"
)

const valid = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType",
 "metadata":{"name":"gpu","uid":"1","resourceVersion":"7","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"amlarc.azureml.com/v1alpha1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]},
 "spec":{"nodeSelector":{"pool":"gpu"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":2,"memory":"2Gi","nvidia.com/gpu":1}}}}`

// broken has a mistake in most fields, and a field InstanceType does not have.
const broken = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
 "spec":{"nodeSelector":{"pool":"a b"},"extra":1,"resources":{"requests":{"cpu":"0","memory":"3Gi","nvidia.com/gpu":1},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":0.5,"cpus":"1"}}}}`

var instanceTypes = metav1.GroupVersionResource{Group: "amlarc.azureml.com", Version: "v1alpha1", Resource: "instancetypes"}

type request struct {
	admissionv1.AdmissionReview
	object string
}

func review(op admissionv1.Operation, gvr metav1.GroupVersionResource, object string) request {
	return request{object: object, AdmissionReview: admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID: types.UID("uid-" + string(op)), Operation: op, Resource: gvr, Name: "gpu",
		},
	}}
}

// marshal encodes r with object as its request's object, written as is ("" for none).
func marshal(t *testing.T, r admissionv1.AdmissionReview, object string) []byte {
	t.Helper()
	body, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if object == "" {
		return body
	}
	// The request's object is written by hand: RawExtension marshals only what it can read.
	return bytes.Replace(body, []byte(`"request":{`), []byte(`"request":{"object":`+object+`,`), 1)
}

// post sends body to the handler and returns the HTTP status and the decoded response.
func post(t *testing.T, h http.Handler, contentType string, body []byte) (int, *admissionv1.AdmissionReview) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return rec.Code, nil
	}
	var out admissionv1.AdmissionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("response %s: %v", rec.Body, err)
	}
	return rec.Code, &out
}

func TestReview(t *testing.T) {
	tests := []struct {
		name    string
		review  request
		allowed bool
		reason  metav1.StatusReason
		fields  []string // the causes' fields, in order
	}{
		{"valid create", review(admissionv1.Create, instanceTypes, valid), true, "", nil},
		{"valid update", review(admissionv1.Update, instanceTypes, valid), true, "", nil},
		{"broken create", review(admissionv1.Create, instanceTypes, broken), false, metav1.StatusReasonInvalid, []string{
			"spec.extra",                              // unknown field
			"spec.nodeSelector[pool]",                 // not a label value
			"spec.resources.limits[cpus]",             // unknown resource name
			"spec.resources.limits[nvidia.com/gpu]",   // not whole
			"spec.resources.requests[cpu]",            // zero
			"spec.resources.requests[nvidia.com/gpu]", // in requests
			"spec.resources.requests[memory]",         // above its limit
		}},
		{"delete of anything", review(admissionv1.Delete, instanceTypes, ""), true, "", nil},
		{"no object", review(admissionv1.Create, instanceTypes, ""), false, metav1.StatusReasonBadRequest, nil},
		{"a string", review(admissionv1.Create, instanceTypes, `"gpu"`), false, metav1.StatusReasonBadRequest, nil},
		{"a Pod", review(admissionv1.Create, instanceTypes, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"gpu"}}`), false, metav1.StatusReasonBadRequest, nil},
		{"another resource", review(admissionv1.Create, metav1.GroupVersionResource{Version: "v1", Resource: "pods"}, valid), false, metav1.StatusReasonBadRequest, nil},
	}
	h := &webhook.Handler{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := marshal(t, tt.review.AdmissionReview, tt.review.object)
			code, out := post(t, h, "application/json", body)
			if code != http.StatusOK || out.Response == nil {
				t.Fatalf("HTTP %d, response %+v; want 200 and a response", code, out)
			}
			r := out.Response
			if r.UID != tt.review.Request.UID || out.APIVersion != "admission.k8s.io/v1" || out.Kind != "AdmissionReview" {
				t.Errorf("response UID %q, %s %s; want %q, admission.k8s.io/v1 AdmissionReview", r.UID, out.APIVersion, out.Kind, tt.review.Request.UID)
			}
			if r.Allowed != tt.allowed {
				t.Fatalf("allowed = %v (%+v); want %v", r.Allowed, r.Result, tt.allowed)
			}
			if tt.allowed {
				return
			}
			if r.Result == nil || r.Result.Reason != tt.reason || r.Result.Status != metav1.StatusFailure {
				t.Fatalf("result %+v; want a Failure with reason %s", r.Result, tt.reason)
			}
			var fields []string
			if r.Result.Details != nil {
				for _, c := range r.Result.Details.Causes {
					fields = append(fields, c.Field)
				}
			}
			if !slices.Equal(fields, tt.fields) {
				t.Errorf("causes at %q; want %q", fields, tt.fields)
			}
		})
	}
}

// TestReviewOptions: the extension's node selector is applied (R7).
func TestReviewOptions(t *testing.T) {
	h := &webhook.Handler{Options: validate.Options{NodeSelector: map[string]string{"pool": "cpu"}}}
	body := marshal(t, review(admissionv1.Create, instanceTypes, valid).AdmissionReview, valid)
	_, out := post(t, h, "application/json", body)
	if out.Response.Allowed || len(out.Response.Result.Details.Causes) != 1 || out.Response.Result.Details.Causes[0].Field != "spec.nodeSelector[pool]" {
		t.Fatalf("with the extension's pool=cpu, pool=gpu: %+v; want one finding at spec.nodeSelector[pool]", out.Response.Result)
	}
}

func TestServeHTTPErrors(t *testing.T) {
	good := marshal(t, review(admissionv1.Create, instanceTypes, valid).AdmissionReview, valid)
	h := &webhook.Handler{}
	tests := []struct {
		name, method, contentType string
		body                      []byte
		want                      int
	}{
		{"GET", http.MethodGet, "application/json", nil, http.StatusMethodNotAllowed},
		{"YAML", http.MethodPost, "application/yaml", good, http.StatusUnsupportedMediaType},
		{"JSON with charset", http.MethodPost, "application/json; charset=utf-8", good, http.StatusOK},
		{"not JSON", http.MethodPost, "application/json", []byte("{"), http.StatusBadRequest},
		{"v1beta1", http.MethodPost, "application/json", bytes.Replace(good, []byte("admission.k8s.io/v1"), []byte("admission.k8s.io/v1beta1"), 1), http.StatusBadRequest},
		{"no request", http.MethodPost, "application/json", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`), http.StatusBadRequest},
		{"too large", http.MethodPost, "application/json", []byte(`{"x":"` + strings.Repeat("a", webhook.MaxBodyBytes) + `"}`), http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/validate", bytes.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.contentType)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Fatalf("%s: HTTP %d (%s); want %d", tt.name, rec.Code, strings.TrimSpace(rec.Body.String()), tt.want)
			}
		})
	}
}
