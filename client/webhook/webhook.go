// Package webhook is a validating admission webhook for InstanceTypes: an http.Handler
// that answers the API server's AdmissionReview requests (admission.k8s.io/v1) with the
// findings of package validate.
//
// For a CREATE or UPDATE of an amlarc.azureml.com InstanceType, the handler decodes the
// object strictly, as package manifest decodes a file (an unknown field, a duplicate key
// or a value of the wrong type is a finding at its path), validates it with
// validate.InstanceType, and answers allowed, or denied with the Status that
// apierrors.NewInvalid builds: reason Invalid, code 422, and one cause per finding with
// its field path (spec.resources.limits[nvidia.com/gpu]), every finding at once. The API
// server hands that Status to the client, prefixed with the webhook's name:
//
//	admission webhook "instancetypes.amlarc.azureml.com" denied the request:
//	InstanceType.amlarc.azureml.com "gpu" is invalid: [spec.resources.requests[cpu]: ...]
//
// DELETE and CONNECT are allowed, as there is no new object to check. A request for
// another resource is denied: the webhook is registered for the wrong resources. A body
// that is not an AdmissionReview v1 gets HTTP 400, any method but POST 405, a content
// type other than JSON 415, and a body over [MaxBodyBytes] 413.
//
// The handler does not serve TLS itself: serve it with an http.Server whose TLSConfig
// holds the certificate the ValidatingWebhookConfiguration's caBundle trusts, as the
// integration tests of this module do against a real kube-apiserver.
package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/validate"
)

// MaxBodyBytes is the largest request body read: an AdmissionReview carries the object and,
// on update, the old one, each at most the API server's 3 MiB request limit.
const MaxBodyBytes = 7 << 20

// GroupKind is the kind this webhook validates.
var GroupKind = schema.GroupKind{Group: instancetype.GroupName, Kind: instancetype.Kind}

// Resource is the resource this webhook validates.
var Resource = instancetype.SchemeGroupVersion.WithResource("instancetypes")

// Handler validates the InstanceTypes of AdmissionReview requests. The zero Handler
// validates with validate.Options{}.
type Handler struct {
	// Options are those of validate.InstanceType: the extension's node selector and the
	// strict subset mode (R7).
	Options validate.Options
}

// ServeHTTP answers one AdmissionReview v1 request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "only POST is served", http.StatusMethodNotAllowed)
		return
	}
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		http.Error(w, "an AdmissionReview must be sent as application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			http.Error(w, fmt.Sprintf("request body over %d bytes", MaxBodyBytes), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	review, err := decodeReview(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp := h.Review(review.Request)
	resp.UID = review.Request.UID
	out, err := json.Marshal(admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp})
	if err != nil {
		http.Error(w, "encoding the response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out) // an error here means the API server has gone
}

// decodeReview reads an AdmissionReview v1 with a request. Field names are matched by
// case, as the API server matches them; fields this version of k8s.io/api does not know
// are ignored, so that a newer API server can still be answered.
func decodeReview(body []byte) (*admissionv1.AdmissionReview, error) {
	var review admissionv1.AdmissionReview
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(body, &review); err != nil {
		return nil, fmt.Errorf("decoding AdmissionReview: %v", err)
	}
	if gvk := review.GroupVersionKind(); gvk != admissionv1.SchemeGroupVersion.WithKind("AdmissionReview") {
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview, got apiVersion %q, kind %q", review.APIVersion, review.Kind)
	}
	if review.Request == nil {
		return nil, errors.New("the AdmissionReview has no request")
	}
	return &review, nil
}

// Review answers one admission request; the caller sets the response's UID. It is the
// whole of the webhook's logic, with no HTTP.
func (h *Handler) Review(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req.Resource.Group != Resource.Group || req.Resource.Resource != Resource.Resource || req.SubResource != "" {
		return deny(apierrors.NewBadRequest(fmt.Sprintf(
			"this webhook validates %s only, not %s (check the rules of the ValidatingWebhookConfiguration)",
			Resource.GroupResource(), resourceName(req))))
	}
	switch req.Operation {
	case admissionv1.Create, admissionv1.Update:
	default:
		return &admissionv1.AdmissionResponse{Allowed: true}
	}
	d, bad := decodeObject(req.Object.Raw)
	if bad != nil {
		return deny(bad)
	}
	it := d.InstanceTypes[0].Object
	errs := d.Errors
	for _, e := range validate.InstanceType(it, nil, h.Options) {
		if !d.Refused(e.Field) { // decoding has said it: a value of the wrong type
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return deny(apierrors.NewInvalid(GroupKind, it.Name, errs))
	}
	return &admissionv1.AdmissionResponse{Allowed: true}
}

// decodeObject decodes the InstanceType of a request strictly, with package manifest. It
// returns the document (its one instance type and the findings of decoding it), or, for
// something that is no InstanceType at all (no object, a syntax error, another kind), a
// Bad Request.
func decodeObject(raw []byte) (*manifest.Document, *apierrors.StatusError) {
	if len(raw) == 0 {
		return nil, apierrors.NewBadRequest("the admission request has no object")
	}
	f := manifest.Parse("object", raw)
	if len(f.Errors) > 0 {
		return nil, apierrors.NewBadRequest("decoding the object: " + f.Errors[0].Message())
	}
	if len(f.Documents) != 1 || f.Documents[0].Kind != manifest.KindInstanceType || len(f.Documents[0].InstanceTypes) != 1 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the object is not an %s %s", instancetype.APIVersion, instancetype.Kind))
	}
	return f.Documents[0], nil
}

// deny returns a response that refuses the request with err's Status.
func deny(err *apierrors.StatusError) *admissionv1.AdmissionResponse {
	st := err.Status()
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &st}
}

func resourceName(req *admissionv1.AdmissionRequest) string {
	gr := metav1.GroupResource{Group: req.Resource.Group, Resource: req.Resource.Resource}
	if req.SubResource != "" {
		return gr.String() + "/" + req.SubResource
	}
	return gr.String()
}
