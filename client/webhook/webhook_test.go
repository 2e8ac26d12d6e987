package webhook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/amlarc-go/instancetypes/client/webhook"
	"github.com/amlarc-go/instancetypes/resolve"
)

const valid = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType",
 "metadata":{"name":"gpu","uid":"1","resourceVersion":"7","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"amlarc.azureml.com/v1alpha1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]},
 "spec":{"nodeSelector":{"pool":"gpu"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":2,"memory":"2Gi","nvidia.com/gpu":1}}}}`

// broken has a mistake in most fields, and a field InstanceType does not have.
const broken = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
 "spec":{"nodeSelector":{"pool":"a b"},"extra":1,"resources":{"requests":{"cpu":"0","memory":"3Gi","nvidia.com/gpu":1},"limits":{"cpu":"2","memory":"2Gi","nvidia.com/gpu":"0.5","cpus":"1"}}}}`

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
func marshal(t testing.TB, r admissionv1.AdmissionReview, object string) []byte {
	t.Helper()
	return marshalUpdate(t, r, object, "")
}

// marshalUpdate encodes r with object and oldObject, each written as is ("" for none).
func marshalUpdate(t testing.TB, r admissionv1.AdmissionReview, object, oldObject string) []byte {
	t.Helper()
	body, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// The request's objects are written by hand: RawExtension marshals only what it can read.
	if oldObject != "" {
		body = bytes.Replace(body, []byte(`"request":{`), []byte(`"request":{"oldObject":`+oldObject+`,`), 1)
	}
	if object != "" {
		body = bytes.Replace(body, []byte(`"request":{`), []byte(`"request":{"object":`+object+`,`), 1)
	}
	return body
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
		// kubectl's decoder (and the API server's, sigs.k8s.io/json) refuses a document
		// holding a number beyond a 64-bit float's range whole, as it decodes it; so does
		// the webhook, where it was once allowed (the finite-number check never ran on
		// JSON): the object cannot be decoded, a Bad Request.
		{"a limit beyond float64", review(admissionv1.Create, instanceTypes,
			`{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},"spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":-1e400,"memory":"2Gi"}}}}`),
			false, metav1.StatusReasonBadRequest, nil},
		{"delete of anything", review(admissionv1.Delete, instanceTypes, ""), true, "", nil},
		{"connect", review(admissionv1.Connect, instanceTypes, broken), true, "", nil},
		// Fail closed: an operation the handler does not know is denied, whatever the object.
		{"no operation", review("", instanceTypes, broken), false, metav1.StatusReasonBadRequest, nil},
		{"PATCH", review("PATCH", instanceTypes, broken), false, metav1.StatusReasonBadRequest, nil},
		{"lowercase create", review("create", instanceTypes, valid), false, metav1.StatusReasonBadRequest, nil},
		{"a subresource", func() request {
			r := review(admissionv1.Update, instanceTypes, valid)
			r.Request.SubResource = "status"
			return r
		}(), false, metav1.StatusReasonBadRequest, nil},
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
	h := &webhook.Handler{Options: resolve.Options{NodeSelector: map[string]string{"pool": "cpu"}}}
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

// TestManyFindings: 8,000 bad node selector keys are denied with MaxCauses causes and one
// that counts the rest, and a message that names a few: the answer is bounded, whatever
// the number of findings.
func TestManyFindings(t *testing.T) {
	const n = 8000
	sel := map[string]string{}
	for i := range n {
		sel[fmt.Sprintf("bad key %05d", i)] = "v"
	}
	o := with(set(sel, "spec", "nodeSelector"))
	body := marshal(t, review(admissionv1.Create, instanceTypes, "").AdmissionReview, string(encode(t, o)))
	req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	(&webhook.Handler{}).ServeHTTP(rec, req)
	var out admissionv1.AdmissionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
		t.Fatalf("HTTP %d: %v", rec.Code, err)
	}
	st := out.Response.Result
	if out.Response.Allowed || st.Reason != metav1.StatusReasonInvalid || st.Code != http.StatusUnprocessableEntity {
		t.Fatalf("allowed %v, %+v", out.Response.Allowed, st)
	}
	causes := st.Details.Causes
	if len(causes) != webhook.MaxCauses+1 {
		t.Fatalf("%d causes; want %d", len(causes), webhook.MaxCauses+1)
	}
	// n+1 findings: more entries than the CRD allows, at spec.nodeSelector, then the keys,
	// sorted: the first is bad key 00000.
	const found = n + 1
	if causes[0].Field != "spec.nodeSelector" || causes[1].Field != "spec.nodeSelector[bad key 00000]" || causes[webhook.MaxCauses-1].Field != "spec.nodeSelector[bad key 00098]" {
		t.Errorf("causes %s, %s to %s", causes[0].Field, causes[1].Field, causes[webhook.MaxCauses-1].Field)
	}
	last := causes[webhook.MaxCauses]
	if last.Type != webhook.CauseTooManyFindings || !strings.HasPrefix(last.Message, fmt.Sprintf("%d more findings", found-webhook.MaxCauses)) {
		t.Errorf("last cause %+v; want one that counts %d more", last, found-webhook.MaxCauses)
	}
	if !strings.HasSuffix(st.Message, fmt.Sprintf(", and %d more findings]", found-webhook.MessageCauses)) || len(st.Message) > 4096 {
		t.Errorf("message of %d bytes: %.600s", len(st.Message), st.Message)
	}
	if rec.Body.Len() > 64<<10 {
		t.Errorf("response of %d bytes; want at most 64 KiB", rec.Body.Len())
	}
}

// TestObserve: Observe hears what each request came to.
func TestObserve(t *testing.T) {
	var got []webhook.Result
	h := &webhook.Handler{Observe: func(_ *http.Request, r *webhook.Result) { got = append(got, *r) }}
	bad := string(encode(t, with(set("0", "spec", "resources", "requests", "cpu"))))
	for _, body := range [][]byte{
		marshal(t, review(admissionv1.Create, instanceTypes, valid).AdmissionReview, valid),
		marshal(t, review(admissionv1.Create, instanceTypes, bad).AdmissionReview, bad),
		marshal(t, review(admissionv1.Update, instanceTypes, bad).AdmissionReview, bad),
		marshalUpdate(t, review(admissionv1.Update, instanceTypes, bad).AdmissionReview, bad, bad),
		[]byte("{"),
	} {
		post(t, h, "application/json", body)
	}
	post(t, h, "text/plain", nil)
	want := []webhook.Result{
		{UID: "uid-CREATE", Operation: "CREATE", Name: "gpu", Outcome: webhook.Allowed, HTTPStatus: 200},
		{UID: "uid-CREATE", Operation: "CREATE", Name: "gpu", Outcome: webhook.Denied, HTTPStatus: 200, Findings: 1},
		{UID: "uid-UPDATE", Operation: "UPDATE", Name: "gpu", Outcome: webhook.Denied, HTTPStatus: 200, Findings: 1},
		{UID: "uid-UPDATE", Operation: "UPDATE", Name: "gpu", Outcome: webhook.Allowed, HTTPStatus: 200, Ratcheted: 1, Warnings: 2},
		{Outcome: webhook.Malformed, HTTPStatus: http.StatusBadRequest},
		{Outcome: webhook.Malformed, HTTPStatus: http.StatusUnsupportedMediaType},
	}
	if len(got) != len(want) {
		t.Fatalf("%d results; want %d", len(got), len(want))
	}
	for i := range want {
		g := got[i]
		if g.Duration <= 0 {
			t.Errorf("result %d: duration %v", i, g.Duration)
		}
		if (g.Reason == "") != (g.Outcome == webhook.Allowed) {
			t.Errorf("result %d: outcome %s with reason %q", i, g.Outcome, g.Reason)
		}
		g.Duration, g.Reason = 0, ""
		if g != want[i] {
			t.Errorf("result %d = %+v; want %+v", i, g, want[i])
		}
	}
}
