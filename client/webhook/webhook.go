// Package webhook is a validating admission webhook for InstanceTypes: an http.Handler
// that answers the API server's AdmissionReview requests (admission.k8s.io/v1) with the
// findings of package validate, in bounded time and size whatever the object.
//
// # What is checked
//
// For a CREATE or UPDATE of an amlarc.azureml.com InstanceType, the handler decodes the
// object strictly, as the command decodes a file (packages source and decode) (an unknown field, a duplicate key
// or a value of the wrong type is a finding at its path), validates it with
// validate.InstanceType (its metadata included), and answers allowed, or denied with a
// Status of the shape apierrors.NewInvalid builds: reason Invalid, code 422, details
// naming the group, kind and name, and one cause per finding with its field path
// (spec.resources.limits[nvidia.com/gpu]). The API server hands that Status to the client,
// prefixed with the webhook's name:
//
//	admission webhook "instancetypes.amlarc.azureml.com" denied the request:
//	InstanceType.amlarc.azureml.com "gpu" is invalid: [spec.resources.requests[cpu]: ...]
//
// The operations fail closed: DELETE and CONNECT are allowed, as there is no new object to
// check; any other operation than CREATE and UPDATE ("", "PATCH", "create": the API server
// sends none of them) is denied, so that a misconfigured or forged request never admits an
// unchecked object. A request for another resource is denied too: the webhook is
// registered for the wrong resources.
//
// # Bounds
//
// A denial lists at most [MaxCauses] causes, then one more cause of type TooManyFindings
// that counts the rest. Its message names the first [MessageCauses] findings and how many
// more there are (apierrors.NewInvalid would concatenate every finding into it: 5 MB for
// 8,000 bad node selector keys); within that bound it is the message NewInvalid builds.
// Field paths, names and messages repeated in a cause are cut to a few hundred bytes.
// Warnings are at most [MaxWarnings], each at most [MaxWarningRunes] characters, with no
// control characters (the API server drops a warning that has one, and truncates long or
// many warnings itself).
//
// The review stops when the request's context ends: ServeHTTP gives it the deadline the
// API server sends in the timeout query parameter (the webhook's timeoutSeconds), at most
// [MaxReviewTime]; the handler checks the context between its stages (reading, decoding,
// validating, decoding the old object, comparing) and answers a denial with reason Timeout
// once it has ended. A stage already running (decoding a 3 MiB object) runs to its end.
// A body over [MaxBodyBytes] is refused with 413 before it is decoded.
//
// # Ratcheting
//
// On UPDATE the handler ratchets as the API server ratchets CRD validation (GA in
// Kubernetes 1.33): a finding about a value the update does not change does not deny, so
// that an object stored before a rule existed, or before the webhook was installed, can
// still be updated, and above all have its finalizers removed so that it can be deleted.
// Such a finding is admitted and comes back as a warning.
//
// "Unchanged" is precise: a finding of the new object is kept as a warning only if
//   - the old object (oldObject, decoded and validated the same way) has a finding with the
//     same field path, the same type and the same detail, and
//   - the JSON value at that path is equal in both objects (deep equality of the decoded
//     JSON; absent in both counts as equal, so a required field missing from both is
//     unchanged).
//
// Both conditions are needed. The path and value alone would admit a finding that is new
// although its value is not: lowering a cpu limit below an unchanged request makes a new
// finding at the request, whose detail names the new limit ("must be less than or equal to
// cpu limit of 1"), so the detail differs from the old one and the update is denied, as
// the API server denies it (the CEL rule comparing them sits on the changed
// spec.resources). The same finding alone would admit a changed value whose finding reads
// the same (a 300-byte value is cut in the finding, and two such values can read alike; a
// GPU in requests is forbidden whatever its count). A path that names two places in an
// object (an unknown field "a.b" beside a field a holding b, or a key written twice, which
// the API server never sends) is never unchanged. When the old object is missing or is no
// InstanceType, nothing is ratcheted.
//
// The cost of ratcheting is linear in the findings and in the size of both objects: the
// old object is decoded and validated once, and each object's text is scanned once more
// for the values at the findings' paths, which are compared as text, and decoded only
// when their texts differ.
//
// # Warnings
//
// Besides the ratcheted findings (a line that counts them, then up to nine of them, then
// how many more), an admitted instance type named defaultinstancetype gets a warning that
// it overrides the built-in default, which every workload that names no instance type
// uses (R5, R6).
//
// # Serving
//
// The handler does not serve TLS itself: command instancetype-webhook of this module
// serves it, with certificate reloading, timeouts, a bound on reviews in flight, metrics
// and structured logs, and config/ deploys it. [Handler.Observe] is how such a server
// learns what each request came to, without parsing the response again.
package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"github.com/amlarc-go/instancetypes/client/internal/clip"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
)

// MaxBodyBytes is the largest request body read: an AdmissionReview carries the object and,
// on update, the old one, each at most the API server's 3 MiB request limit.
const MaxBodyBytes = 7 << 20

// MaxReviewTime is the longest a review served by ServeHTTP may take: the largest
// timeoutSeconds a ValidatingWebhookConfiguration accepts. The API server's timeout
// parameter, when shorter, sets the deadline.
const MaxReviewTime = 30 * time.Second

// Bounds of a response.
const (
	// MaxCauses is the most causes a denial lists; one more counts the rest.
	MaxCauses = 100
	// MessageCauses is the most findings a denial's message names.
	MessageCauses = 5
	// MaxWarnings is the most warnings a response carries.
	MaxWarnings = 12
	// MaxWarningRunes is the most characters of one warning: the limit the admission API
	// asks for ("Limit warnings to 120 characters if possible").
	MaxWarningRunes = 120
)

// CauseTooManyFindings is the type of the cause that counts the findings a denial does
// not list.
const CauseTooManyFindings metav1.CauseType = "TooManyFindings"

// GroupKind is the kind this webhook validates.
var GroupKind = schema.GroupKind{Group: instancetype.GroupName, Kind: instancetype.Kind}

// Resource is the resource this webhook validates.
var Resource = instancetype.SchemeGroupVersion.WithResource("instancetypes")

// Handler validates the InstanceTypes of AdmissionReview requests. The zero Handler
// validates with resolve.Options{} and observes nothing. A Handler may serve requests
// concurrently; its fields must not change while it does.
type Handler struct {
	// Options are those of validate.InstanceType: the extension's node selector and the
	// strict subset mode (R7).
	Options resolve.Options

	// Observe, when set, is called once for every request ServeHTTP answers, after the
	// response is written, with what the request came to: for logs and metrics. It must
	// not keep the Result's slices.
	Observe func(*http.Request, *Result)
}

// Outcome is what a request came to.
type Outcome string

// The outcomes of a request.
const (
	// Allowed: the review allowed the request (with warnings, perhaps).
	Allowed Outcome = "allowed"
	// Denied: the review denied the request: findings, an unknown operation, another
	// resource, an object that is no InstanceType.
	Denied Outcome = "denied"
	// Canceled: the request's context ended before the review did; it was denied.
	Canceled Outcome = "canceled"
	// Malformed: no review took place: the request was not a POST of an AdmissionReview
	// v1 as JSON within MaxBodyBytes, and was answered with an HTTP error.
	Malformed Outcome = "malformed"
)

// Result is what one request came to, as Handler.Observe receives it. Text from the
// request (UID, operation, name) is cut to a few hundred bytes.
type Result struct {
	// UID is the AdmissionReview's request UID, "" when none could be read.
	UID types.UID
	// Operation is the request's operation as sent (CREATE, UPDATE, ...), "" when none
	// could be read.
	Operation admissionv1.Operation
	// Name is the object's metadata.name, or the request's name when the object has none.
	Name string
	// Outcome is what the request came to.
	Outcome Outcome
	// HTTPStatus is the HTTP status ServeHTTP answered with: 200 for every review,
	// allowed or denied.
	HTTPStatus int
	// Findings is how many findings denied the request, all of them, including those the
	// response does not list.
	Findings int
	// Ratcheted is how many findings were admitted because their values were unchanged
	// from the old object.
	Ratcheted int
	// Warnings is how many warnings the response carries.
	Warnings int
	// Reason says why a request was denied or malformed: the denial's message, or the
	// HTTP error. It is "" when the request was allowed.
	Reason string
	// Duration is the time from the request's arrival at ServeHTTP to its answer.
	Duration time.Duration
}

// ServeHTTP answers one AdmissionReview v1 request. A body that is not an AdmissionReview
// v1 gets HTTP 400, any method but POST 405, a content type other than JSON 415, and a
// body over MaxBodyBytes 413; every review, allowed or denied, gets 200.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	res := &Result{}
	start := time.Now()
	defer func() {
		res.Duration = time.Since(start)
		if h.Observe != nil {
			h.Observe(r, res)
		}
	}()
	fail := func(msg string, code int) {
		res.Outcome, res.HTTPStatus, res.Reason = Malformed, code, msg
		http.Error(w, msg, code)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		fail("only POST is served", http.StatusMethodNotAllowed)
		return
	}
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		fail("an AdmissionReview must be sent as application/json", http.StatusUnsupportedMediaType)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), reviewTime(r))
	defer cancel()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			fail(fmt.Sprintf("request body over %d bytes", MaxBodyBytes), http.StatusRequestEntityTooLarge)
			return
		}
		fail("reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	review, err := decodeReview(body)
	if err != nil {
		fail(err.Error(), http.StatusBadRequest)
		return
	}
	body = nil // the review holds what is needed; let the rest go
	resp := h.review(ctx, review.Request, res)
	resp.UID = review.Request.UID
	out, err := json.Marshal(admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp})
	if err != nil {
		res.Outcome = Malformed
		fail("encoding the response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	res.HTTPStatus = http.StatusOK
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out) // an error here means the API server has gone
}

// reviewTime is how long the review of r may take: the timeout the API server sends as a
// query parameter (the webhook's timeoutSeconds, rounded up to a second), at most
// MaxReviewTime, or MaxReviewTime without one.
func reviewTime(r *http.Request) time.Duration {
	if d, err := time.ParseDuration(r.URL.Query().Get("timeout")); err == nil && 0 < d && d < MaxReviewTime {
		return d
	}
	return MaxReviewTime
}

// decodeReview reads an AdmissionReview v1 with a request. Field names are matched by
// case, as the API server matches them; fields this version of k8s.io/api does not know
// are ignored, so that a newer API server can still be answered.
func decodeReview(body []byte) (*admissionv1.AdmissionReview, error) {
	var review admissionv1.AdmissionReview
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(body, &review); err != nil {
		return nil, fmt.Errorf("decoding AdmissionReview: %v", clip.String(err.Error()))
	}
	if gvk := review.GroupVersionKind(); gvk != admissionv1.SchemeGroupVersion.WithKind("AdmissionReview") {
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview, got apiVersion %q, kind %q", clip.String(review.APIVersion), clip.String(review.Kind))
	}
	if review.Request == nil {
		return nil, errors.New("the AdmissionReview has no request")
	}
	return &review, nil
}

// Review answers one admission request; the caller sets the response's UID. It is the
// whole of the webhook's logic, with no HTTP. When ctx ends before the review does, the
// request is denied with reason Timeout.
func (h *Handler) Review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	return h.review(ctx, req, &Result{})
}

// review is Review, filling res.
func (h *Handler) review(ctx context.Context, req *admissionv1.AdmissionRequest, res *Result) *admissionv1.AdmissionResponse {
	res.UID = types.UID(clip.String(string(req.UID)))
	res.Operation = admissionv1.Operation(clip.String(string(req.Operation)))
	res.Name = clip.String(req.Name)
	if req.Resource.Group != Resource.Group || req.Resource.Resource != Resource.Resource || req.SubResource != "" {
		return deny(res, apierrors.NewBadRequest(fmt.Sprintf(
			"this webhook validates %s only, not %s (check the rules of the ValidatingWebhookConfiguration)",
			Resource.GroupResource(), clip.String(resourceName(req)))))
	}
	switch req.Operation {
	case admissionv1.Create, admissionv1.Update:
	case admissionv1.Delete, admissionv1.Connect:
		return allow(res, nil)
	default:
		return deny(res, apierrors.NewBadRequest(fmt.Sprintf(
			"unknown operation %q: this webhook validates CREATE and UPDATE and allows DELETE and CONNECT; it denies anything else",
			clip.String(string(req.Operation)))))
	}
	if err := checkpoint(ctx, stageRead); err != nil {
		return canceled(res, err)
	}
	d, bad := decodeObject(req.Object.Raw, "object")
	if bad != nil {
		return deny(res, bad)
	}
	it := d.it
	if it.Name != "" {
		res.Name = clip.String(it.Name)
	}
	if err := checkpoint(ctx, stageDecoded); err != nil {
		return canceled(res, err)
	}
	errs := findings(d, h.Options)
	if err := checkpoint(ctx, stageValidated); err != nil {
		return canceled(res, err)
	}
	var kept field.ErrorList
	if req.Operation == admissionv1.Update && len(errs) > 0 {
		var err error
		if errs, kept, err = ratchet(ctx, errs, req.Object.Raw, req.OldObject.Raw, h.Options); err != nil {
			return canceled(res, err)
		}
	}
	warn := warningsFor(it, kept)
	res.Ratcheted = len(kept)
	if len(errs) > 0 {
		res.Findings = len(errs)
		resp := deny(res, invalid(it.Name, errs))
		resp.Warnings = warn
		res.Warnings = len(warn)
		return resp
	}
	return allow(res, warn)
}

// decoded is the one instance type of a request's object, decoded, with the findings of
// decoding it.
type decoded struct {
	it   *instancetype.InstanceType
	errs field.ErrorList
}

// findings returns the findings about the one instance type of d: those of decoding it,
// then validate.InstanceType's, less those at or below a value decoding refused (a value
// of the wrong type, which decoding has reported): decode.WithoutRestated, which the
// command's lint uses too, keeps the same ones.
func findings(d decoded, opts resolve.Options) field.ErrorList {
	return append(d.errs[:len(d.errs):len(d.errs)], decode.WithoutRestated(d.errs, validate.InstanceType(d.it, nil, opts), nil)...)
}

// decodeObject decodes the InstanceType of a request strictly, as the command reads a file
// (package source, then package decode). It returns the instance type and the findings of
// decoding it, or, for something that is no InstanceType at all (no object, a syntax
// error, another kind), a Bad Request naming what (object or oldObject).
func decodeObject(raw []byte, what string) (decoded, *apierrors.StatusError) {
	if len(raw) == 0 {
		return decoded{}, apierrors.NewBadRequest("the admission request has no " + what)
	}
	var docs []*source.Document
	f := source.Scan(raw, source.Options{}, func(d *source.Document) bool { docs = append(docs, d); return len(docs) < 2 })
	switch {
	case len(f.Problems) > 0:
		return decoded{}, apierrors.NewBadRequest("decoding the " + what + ": " + cut(f.Problems[0].Message, maxCauseBytes))
	case len(docs) == 1 && docs[0].Problem != nil:
		return decoded{}, apierrors.NewBadRequest("decoding the " + what + ": " + cut(docs[0].Problem.Message, maxCauseBytes))
	}
	if len(docs) != 1 {
		return decoded{}, notInstanceType(what)
	}
	kind, _, problem, _ := decode.Recognise(docs[0].Value)
	if problem != nil || kind != decode.KindInstanceType {
		return decoded{}, notInstanceType(what)
	}
	r := decode.Document(docs[0], kind)
	return decoded{it: r.InstanceTypes[0].Object, errs: r.InstanceTypes[0].Errors}, nil
}

// notInstanceType is the Bad Request of an object that is no InstanceType.
func notInstanceType(what string) *apierrors.StatusError {
	return apierrors.NewBadRequest(fmt.Sprintf("the %s is not an %s %s", what, instancetype.APIVersion, instancetype.Kind))
}

// The stages between which a review checks its context.
const (
	stageRead      = "read"      // the request is read; the object is not decoded yet
	stageDecoded   = "decoded"   // the object is decoded
	stageValidated = "validated" // the object is validated
	stageOldObject = "old"       // on update, the old object is decoded and validated
	stageCompared  = "compared"  // on update, the values of both are compared
)

// testHookStage, when set by a test, is called at each checkpoint before the context is
// checked.
var testHookStage func(stage string)

// checkpoint returns ctx's error if it has ended: the review stops there.
func checkpoint(ctx context.Context, stage string) error {
	if testHookStage != nil {
		testHookStage(stage)
	}
	return ctx.Err()
}

// allow returns a response that admits the request, with warnings.
func allow(res *Result, warnings []string) *admissionv1.AdmissionResponse {
	res.Outcome, res.Warnings = Allowed, len(warnings)
	return &admissionv1.AdmissionResponse{Allowed: true, Warnings: warnings}
}

// deny returns a response that refuses the request with err's Status.
func deny(res *Result, err *apierrors.StatusError) *admissionv1.AdmissionResponse {
	st := err.Status()
	res.Outcome, res.Reason = Denied, st.Message
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &st}
}

// canceled returns a response that refuses the request because its context ended (err).
func canceled(res *Result, err error) *admissionv1.AdmissionResponse {
	resp := deny(res, apierrors.NewTimeoutError("the review stopped before its end: "+err.Error(), 0))
	res.Outcome = Canceled
	return resp
}

func resourceName(req *admissionv1.AdmissionRequest) string {
	gr := metav1.GroupResource{Group: req.Resource.Group, Resource: req.Resource.Resource}
	if req.SubResource != "" {
		return gr.String() + "/" + req.SubResource
	}
	return gr.String()
}
