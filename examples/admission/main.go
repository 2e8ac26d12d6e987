// Admission validates InstanceTypes over HTTP, as the handler of a validating admission
// webhook would: it decodes an InstanceType posted as JSON, validates it with package
// validate and answers with the metav1.Status that the Kubernetes API server itself
// returns for an invalid object (status Failure, reason Invalid, code 422, one cause per
// field, built by apierrors.NewInvalid), or a Success status when the object is valid.
// Malformed JSON, unknown fields and a wrong apiVersion or kind get 400 Bad Request, any
// method but POST 405 Method Not Allowed.
//
// A real webhook receives an AdmissionReview (k8s.io/api/admission/v1) and returns this
// Status as its response.result; this example stays within k8s.io/apimachinery and posts
// the object alone. main starts the handler on a local test server, posts the source
// document's instance type (my_instance_type.yaml, converted to JSON), a broken one and a
// Pod, and prints the answers. Run it with
//
//	go run ./examples/admission
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// maxBody is the largest request accepted, as the API server limits its own.
const maxBody = 3 << 20

var groupKind = schema.GroupKind{Group: instancetype.GroupName, Kind: instancetype.Kind}

// handler validates the InstanceTypes posted to it.
type handler struct {
	opts resolve.Options // the extension's node selector, strict subset mode
}

func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeStatus(w, apierrors.NewMethodNotSupported(instancetype.Resource("instancetypes"), r.Method).Status())
		return
	}
	it, err := decode(w, r)
	if err != nil {
		writeStatus(w, err.Status())
		return
	}
	if errs := validate.InstanceType(it, nil, h.opts); len(errs) > 0 {
		writeStatus(w, apierrors.NewInvalid(groupKind, it.Name, errs).Status())
		return
	}
	writeStatus(w, metav1.Status{
		Status:  metav1.StatusSuccess,
		Code:    http.StatusOK,
		Message: fmt.Sprintf("%s %q is valid", groupKind, it.Name),
		Details: &metav1.StatusDetails{Group: groupKind.Group, Kind: groupKind.Kind, Name: it.Name},
	})
}

// decode reads the InstanceType in the body of r. Bad resource values are kept for
// validation to report at their field (instancetype.Amount does that); anything that is
// not one JSON InstanceType object is a Bad Request. (Unlike the API server's decoder,
// encoding/json matches field names regardless of case: "Metadata" is read as metadata.)
func decode(w http.ResponseWriter, r *http.Request) (*instancetype.InstanceType, *apierrors.StatusError) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields() // as the API server's strict field validation does
	var it instancetype.InstanceType
	if err := dec.Decode(&it); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d bytes", maxBody))
		}
		return nil, apierrors.NewBadRequest("decoding InstanceType: " + err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, apierrors.NewBadRequest("decoding InstanceType: unexpected data after the object")
	}
	if it.APIVersion != instancetype.APIVersion || it.Kind != instancetype.Kind {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected apiVersion %q and kind %q, got %q and %q",
			instancetype.APIVersion, instancetype.Kind, it.APIVersion, it.Kind))
	}
	return &it, nil
}

// writeStatus writes st as the JSON response, with st.Code as the HTTP status.
func writeStatus(w http.ResponseWriter, st metav1.Status) {
	st.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(int(st.Code))
	_ = json.NewEncoder(w).Encode(st) // an error here means the client has gone
}

// broken is an InstanceType with mistakes in most fields.
const broken = `{
  "apiVersion": "amlarc.azureml.com/v1alpha1",
  "kind": "InstanceType",
  "metadata": {"name": "gpu-large"},
  "spec": {
    "nodeSelector": {"accelerator": "nvidia-a100"},
    "resources": {
      "requests": {"cpu": "0", "memory": "64Gx", "nvidia.com/gpu": 1},
      "limits": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": 0.5}
    }
  }
}`

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "admission:", err)
		os.Exit(1)
	}
}

// run posts a valid instance type, a broken one and a Pod to the handler and prints the
// answers.
func run(w io.Writer) error {
	srv := httptest.NewServer(handler{})
	defer srv.Close()

	seed, err := fs.ReadFile(examples.Manifests, "my_instance_type.yaml")
	if err != nil {
		return err
	}
	valid, err := yaml.YAMLToJSON(seed)
	if err != nil {
		return fmt.Errorf("my_instance_type.yaml: %w", err)
	}
	requests := []struct{ what, body string }{
		{"my_instance_type.yaml", string(valid)},
		{"a broken InstanceType", broken},
		{"a Pod", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}}`},
	}
	for _, r := range requests {
		st, err := post(srv.URL, r.body)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d %s", r.what, st.Code, st.Status)
		if st.Reason != "" {
			fmt.Fprintf(w, " (%s)", st.Reason)
		}
		fmt.Fprintln(w)
		if st.Details == nil || len(st.Details.Causes) == 0 {
			fmt.Fprintf(w, "  %s\n", st.Message)
			continue
		}
		for _, c := range st.Details.Causes {
			fmt.Fprintf(w, "  %s: %s\n", c.Field, c.Message)
		}
	}
	return nil
}

// post sends body to url and decodes the Status of the answer.
func post(url, body string) (*metav1.Status, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var st metav1.Status
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, fmt.Errorf("decoding the answer (HTTP %s): %w", resp.Status, err)
	}
	return &st, nil
}
