package webhook_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/amlarc-go/instancetypes/client/webhook"
)

var sinkResponse *admissionv1.AdmissionResponse

// benchObjects are the objects of the benchmarks: a typical valid instance type, one with
// a mistake in most fields, and one with 8,000 bad node selector keys.
func benchObjects(b *testing.B) map[string][]byte {
	sel := map[string]string{}
	for i := range 8000 {
		sel[fmt.Sprintf("bad key %04d", i)] = "v"
	}
	return map[string][]byte{
		"valid":         []byte(valid),
		"broken":        []byte(broken),
		"8000-bad-keys": encode(b, with(set(sel, "spec", "nodeSelector"))),
	}
}

// BenchmarkReview is the cost of the webhook's logic alone, without HTTP or TLS:
// decoding the object strictly, validating it and building the response.
func BenchmarkReview(b *testing.B) {
	objs := benchObjects(b)
	h := &webhook.Handler{}
	for _, name := range []string{"valid", "broken", "8000-bad-keys"} {
		req := &admissionv1.AdmissionRequest{Operation: admissionv1.Create, Resource: instanceTypes, Object: runtime.RawExtension{Raw: objs[name]}}
		b.Run("obj="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkResponse = h.Review(context.Background(), req)
			}
		})
	}
}

// BenchmarkServeHTTP adds reading and writing the AdmissionReview JSON, in process.
func BenchmarkServeHTTP(b *testing.B) {
	objs := benchObjects(b)
	h := &webhook.Handler{}
	for _, name := range []string{"valid", "broken"} {
		body := marshal(b, review(admissionv1.Create, instanceTypes, "").AdmissionReview, string(objs[name]))
		b.Run("obj="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/validate-instancetypes", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}
