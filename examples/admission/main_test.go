package main

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// serve sends one request to the handler and decodes the Status it answers with.
func serve(t *testing.T, method, body string) (int, metav1.Status) {
	t.Helper()
	rec := httptest.NewRecorder()
	handler{}.ServeHTTP(rec, httptest.NewRequest(method, "/validate", strings.NewReader(body)))
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type = %q; want application/json", method, ct)
	}
	var st metav1.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatalf("%s: decoding the answer %q: %v", method, rec.Body, err)
	}
	if st.Kind != "Status" || st.APIVersion != "v1" || int(st.Code) != rec.Code {
		t.Errorf("%s: answer is kind %q apiVersion %q code %d, with HTTP %d; want a v1 Status with the HTTP code",
			method, st.Kind, st.APIVersion, st.Code, rec.Code)
	}
	return rec.Code, st
}

func TestValid(t *testing.T) {
	seed, err := fs.ReadFile(examples.Manifests, "my_instance_type.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, err := yaml.YAMLToJSON(seed)
	if err != nil {
		t.Fatal(err)
	}
	code, st := serve(t, http.MethodPost, string(body))
	if code != http.StatusOK || st.Status != metav1.StatusSuccess {
		t.Errorf("POST my_instance_type.yaml = %d %s; want 200 Success", code, st.Status)
	}
}

func TestInvalid(t *testing.T) {
	code, st := serve(t, http.MethodPost, broken)
	if code != http.StatusUnprocessableEntity || st.Status != metav1.StatusFailure || st.Reason != metav1.StatusReasonInvalid {
		t.Fatalf("POST broken = %d %s %s; want 422 Failure Invalid", code, st.Status, st.Reason)
	}
	if !apierrors.IsInvalid(&apierrors.StatusError{ErrStatus: st}) {
		t.Error("apierrors.IsInvalid(answer) = false; want true")
	}
	if d := st.Details; d == nil || d.Group != instancetype.GroupName || d.Kind != "InstanceType" || d.Name != "gpu-large" {
		t.Errorf("details = %+v; want group %s, kind InstanceType, name gpu-large", d, instancetype.GroupName)
	}
	var fields []string
	for _, c := range st.Details.Causes {
		fields = append(fields, c.Field)
		if c.Type == "" || c.Message == "" {
			t.Errorf("cause %+v lacks a type or a message", c)
		}
	}
	want := []string{
		"spec.resources.limits[nvidia.com/gpu]",
		"spec.resources.requests[cpu]",
		"spec.resources.requests[memory]",
		"spec.resources.requests[nvidia.com/gpu]",
	}
	if !slices.Equal(fields, want) {
		t.Errorf("cause fields = %q; want %q", fields, want)
	}

	// The answer is the Status apimachinery builds for the same errors.
	var it instancetype.InstanceType
	if err := json.Unmarshal([]byte(broken), &it); err != nil {
		t.Fatal(err)
	}
	wantSt := apierrors.NewInvalid(groupKind, it.Name, validate.InstanceType(&it, nil, resolve.Options{})).Status()
	wantSt.TypeMeta = st.TypeMeta
	got, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(wantSt)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(wantJSON) {
		t.Errorf("answer:\n%s\nwant apierrors.NewInvalid's:\n%s", got, wantJSON)
	}
}

func TestBadRequest(t *testing.T) {
	for _, body := range []string{
		`not JSON`,
		``,
		`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType"} trailing`,
		`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "spec": {"size": "L"}}`,
		`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": true}}}}`,
		`{"apiVersion": "v1", "kind": "Pod"}`,
		`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceTypeList"}`,
	} {
		code, st := serve(t, http.MethodPost, body)
		if code != http.StatusBadRequest || st.Reason != metav1.StatusReasonBadRequest || st.Message == "" {
			t.Errorf("POST %q = %d %s %q; want 400 BadRequest with a message", body, code, st.Reason, st.Message)
		}
	}
}

func TestMethodNotAllowed(t *testing.T) {
	code, st := serve(t, http.MethodGet, "")
	if code != http.StatusMethodNotAllowed || st.Reason != metav1.StatusReasonMethodNotAllowed {
		t.Errorf("GET = %d %s; want 405 MethodNotAllowed", code, st.Reason)
	}
}

func TestTooLarge(t *testing.T) {
	body := `{"metadata": {"name": "` + strings.Repeat("a", maxBody) + `"}}`
	code, st := serve(t, http.MethodPost, body)
	if code != http.StatusRequestEntityTooLarge || st.Reason != metav1.StatusReasonRequestEntityTooLarge {
		t.Errorf("POST of %d bytes = %d %s; want 413 RequestEntityTooLarge", len(body), code, st.Reason)
	}
}

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatalf("run: %v", err)
	}
	for _, line := range []string{
		"my_instance_type.yaml: 200 Success\n",
		"a broken InstanceType: 422 Failure (Invalid)\n",
		"  spec.resources.requests[cpu]: Invalid value: \"0\": must be greater than zero\n",
		"a Pod: 400 Failure (BadRequest)\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("run output lacks %q; got:\n%s", line, out.String())
		}
	}
}
