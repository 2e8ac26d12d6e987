package webhook_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/amlarc-go/instancetypes/client/internal/cputime"
	"github.com/amlarc-go/instancetypes/client/webhook"
	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
)

// manyKeysRequest is a review of an instance type with n invalid node selector keys: a
// CREATE, or an UPDATE that removes the finalizer of an old object with the same keys
// (every finding is ratcheted: the path the walk over both objects takes).
func manyKeysRequest(t testing.TB, op admissionv1.Operation, n int) *admissionv1.AdmissionRequest {
	sel := object{}
	for i := range n {
		sel[fmt.Sprintf("bad key %05d", i)] = "v"
	}
	req := &admissionv1.AdmissionRequest{
		UID: "u", Operation: op, Resource: instanceTypes, Name: "gpu",
		Object: kruntime.RawExtension{Raw: encode(t, with(set(sel, "spec", "nodeSelector"), noFinalizers))},
	}
	if op == admissionv1.Update {
		req.OldObject.Raw = encode(t, with(set(sel, "spec", "nodeSelector")))
	}
	return req
}

// reviewKeys reviews manyKeysRequest(op, n) and checks its answer: a CREATE denied with
// every finding counted, an UPDATE admitted.
func reviewKeys(t testing.TB, op admissionv1.Operation, n int) func() {
	req := manyKeysRequest(t, op, n)
	return func() {
		r := (&webhook.Handler{}).Review(context.Background(), req)
		switch {
		case op == admissionv1.Create && (r.Allowed || len(r.Result.Details.Causes) != webhook.MaxCauses+1):
			t.Fatalf("CREATE of %d invalid keys: allowed %v; want a denial of %d causes", n, r.Allowed, webhook.MaxCauses+1)
		case op == admissionv1.Update && !r.Allowed:
			t.Fatalf("UPDATE of %d unchanged invalid keys denied: %.300s", n, r.Result.Message)
		}
	}
}

// libraryKeys is the library's part of a review of manyKeysRequest(CREATE, n): decoding
// the object (source.Scan, decode.Document), validating it (validate.InstanceType) and
// leaving out what decoding refused (decode.WithoutRestated), as the handler calls them.
func libraryKeys(t testing.TB, n int) func() {
	raw := manyKeysRequest(t, admissionv1.Create, n).Object.Raw
	return func() {
		var r *decode.Result
		source.Scan(raw, source.Options{}, func(d *source.Document) bool { r = decode.Document(d, decode.KindInstanceType); return false })
		it := r.InstanceTypes[0]
		errs := append(it.Errors[:len(it.Errors):len(it.Errors)], decode.WithoutRestated(it.Errors, validate.InstanceType(it.Object, nil, resolve.Options{}), nil)...)
		// One for each key, and one for more entries than the CRD allows.
		if got := len(errs); got != n+1 {
			t.Fatalf("%d findings of %d invalid keys; want %d", got, n, n+1)
		}
	}
}

// linearBound is issue 17's bound on the cost of 30,000 findings against 3,000.
const linearBound = 12

// libraryMargin is how much more than the library's own ratio a review's may be, measured
// in the same run: what two measurements of one ratio differ by on a busy machine.
const libraryMargin = 1.5

// The cost of a review is linear in the findings, on CREATE and on UPDATE, which ratchets
// each finding against the old object: 30,000 invalid node selector keys take at most 12
// times the processor time of 3,000, or, where the library's own part of the
// review (decoding, validate.InstanceType, Locate), measured in the same run, takes more
// than 8 times, at most half as much again as the library's ratio: the webhook adds
// nothing that grows faster than the work it calls. Behind INSTANCETYPES_SLOW_TESTS.
//
// The processor time is as cputime.Compare measures it.
func TestManyFindingsLinear(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (client/hack/ci.sh does)")
	}
	works := []*cputime.Scaling{
		{Name: "the library's part (decode, validate, locate)", Small: libraryKeys(t, 3000), Large: libraryKeys(t, 30000)},
		{Name: "Review (CREATE)", Small: reviewKeys(t, admissionv1.Create, 3000), Large: reviewKeys(t, admissionv1.Create, 30000)},
		{Name: "Review (UPDATE)", Small: reviewKeys(t, admissionv1.Update, 3000), Large: reviewKeys(t, admissionv1.Update, 30000)},
	}
	cputime.Compare(works...)
	for _, w := range works {
		t.Logf("%s: 3,000 invalid keys %v, 30,000 %v (%.1f×)", w.Name, w.SmallTime, w.LargeTime, w.Ratio())
	}
	bound := max(linearBound, libraryMargin*works[0].Ratio())
	if bound > linearBound {
		t.Logf("the library's part takes %.1f times: the bound is %.1f times, half as much again", works[0].Ratio(), bound)
	}
	for _, w := range works[1:] {
		if r := w.Ratio(); r > bound {
			t.Errorf("%s: 30,000 invalid keys took %v, 3,000 %v: %.1f times, more than %.1f; want a cost linear in the findings", w.Name, w.LargeTime, w.SmallTime, r, bound)
		}
	}
}

// BenchmarkManyFindings is the cost of a review of 3,000 and of 30,000 invalid node
// selector keys, on CREATE and on UPDATE, for the ratio of 30,000 to 3,000 in
// scripts/bench-webhook.sh.
func BenchmarkManyFindings(b *testing.B) {
	for _, op := range []admissionv1.Operation{admissionv1.Create, admissionv1.Update} {
		for _, n := range []int{3000, 30000} {
			run := reviewKeys(b, op, n)
			b.Run(fmt.Sprintf("op=%s/keys=%d", op, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					run()
				}
			})
		}
	}
}
