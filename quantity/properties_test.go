package quantity

import (
	"encoding/json"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"
)

// Properties written once with rapid, run as tests (rapid.Check) and as fuzz targets
// (rapid.MakeFuzz).

// genQuantity draws Quantities two ways: by parsing genQuantityText, and from a
// significand, a power of ten and a format, with small numbers and multiples of powers
// of 1024 favoured so that every suffix shows up.
var genQuantity = rapid.OneOf(
	rapid.Custom(func(t *rapid.T) Quantity {
		q, _ := Parse(genQuantityText.Draw(t, "text"))
		return q
	}),
	rapid.Custom(func(t *rapid.T) Quantity {
		n := rapid.OneOf(
			rapid.Int64Range(-5000, 5000),
			rapid.Int64(),
			rapid.Custom(func(t *rapid.T) int64 {
				return rapid.Int64Range(-8191, 8191).Draw(t, "k") << (10 * rapid.IntRange(0, 5).Draw(t, "p"))
			}),
		).Draw(t, "n")
		exp := rapid.IntRange(-9, 18).Draw(t, "exp")
		f := rapid.SampledFrom([]Format{DecimalSI, BinarySI, DecimalExponent}).Draw(t, "format")
		q, _ := fromScaled(n < 0, u128{0, abs(n)}, int64(exp), f)
		return q
	}),
)

// propStringRoundTrip: Parse(q.String()) has q's value, and is q itself unless the
// text is in another format than q's: BinarySI 1536 and 2000 print "1536" and "2000",
// which parse as DecimalSI (and 2000 then prints "2k"), as in apimachinery.
func propStringRoundTrip(t *rapid.T) {
	q := genQuantity.Draw(t, "q")
	s := q.String()
	p, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q) of %#v: %v", s, q, err)
	}
	if p != q.WithFormat(p.Format()) || p.Format() == q.Format() && p.String() != s {
		t.Fatalf("Parse(%q) = %#v; want %#v", s, p, q)
	}
	var u Quantity
	if err := u.UnmarshalText([]byte(s)); err != nil || u != p {
		t.Fatalf("UnmarshalText(%q) = %#v, %v; want %#v", s, u, err, p)
	}
	if back, err := FromResource(q.ToResource()); err != nil || back != q {
		t.Fatalf("FromResource(%#v.ToResource()) = %#v, %v", q, back, err)
	}
	r := q.ToResource()
	if rs := r.String(); rs != s {
		t.Fatalf("%#v: apimachinery prints %q, we print %q", q, rs, s)
	}
}

// propCmp: Cmp is antisymmetric and transitive, agrees with apimachinery's Cmp, and
// is 0 exactly when the values are equal.
func propCmp(t *rapid.T) {
	a, b, c := genQuantity.Draw(t, "a"), genQuantity.Draw(t, "b"), genQuantity.Draw(t, "c")
	if a.Cmp(a) != 0 {
		t.Fatalf("%v.Cmp(itself) = %d", a, a.Cmp(a))
	}
	if ab, ba := a.Cmp(b), b.Cmp(a); ab != -ba {
		t.Fatalf("%v.Cmp(%v) = %d but %v.Cmp(%v) = %d", a, b, ab, b, a, ba)
	}
	if a.Cmp(b) <= 0 && b.Cmp(c) <= 0 && a.Cmp(c) > 0 {
		t.Fatalf("%v <= %v <= %v but %v > %v", a, b, c, a, c)
	}
	ra, rb := a.ToResource(), b.ToResource()
	if got, want := a.Cmp(b), ra.Cmp(rb); got != want {
		t.Fatalf("%v.Cmp(%v) = %d; apimachinery says %d", a, b, got, want)
	}
	if (a.Cmp(b) == 0) != (a.WithFormat(DecimalSI) == b.WithFormat(DecimalSI)) {
		t.Fatalf("%#v.Cmp(%#v) = %d, but == says otherwise", a, b, a.Cmp(b))
	}
}

// propAppendText: AppendText appends String's text after what is in the buffer.
func propAppendText(t *rapid.T) {
	q := genQuantity.Draw(t, "q")
	prefix := []byte(rapid.StringN(0, 8, -1).Draw(t, "prefix"))
	b, err := q.AppendText(append([]byte(nil), prefix...))
	if err != nil || string(b) != string(prefix)+q.String() {
		t.Fatalf("AppendText(%q) of %#v = %q, %v; want %q", prefix, q, b, err, string(prefix)+q.String())
	}
	m, err := q.MarshalText()
	if err != nil || string(m) != q.String() {
		t.Fatalf("MarshalText of %#v = %q, %v", q, m, err)
	}
}

// propJSONRoundTrip: JSON round trips, and our JSON is apimachinery's, both ways.
func propJSONRoundTrip(t *rapid.T) {
	q := genQuantity.Draw(t, "q")
	data, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var p Quantity
	if err := json.Unmarshal(data, &p); err != nil || p != q.WithFormat(p.Format()) {
		t.Fatalf("json round trip of %#v through %s = %#v, %v", q, data, p, err)
	}
	rdata, err := json.Marshal(q.ToResource())
	if err != nil || string(rdata) != string(data) {
		t.Fatalf("apimachinery writes %s, we write %s", rdata, data)
	}
	var r resource.Quantity
	if err := json.Unmarshal(data, &r); err != nil || r.Cmp(q.ToResource()) != 0 {
		t.Fatalf("apimachinery reads %s as %v, %v", data, r.String(), err)
	}
}

// propAddSub: Add and Sub agree with apimachinery's whenever the result is in range,
// and report ErrRange exactly when it is not.
func propAddSub(t *rapid.T) {
	a, b := genQuantity.Draw(t, "a"), genQuantity.Draw(t, "b")
	for _, op := range []struct {
		name string
		ours func(Quantity) (Quantity, error)
		ref  func(*resource.Quantity, resource.Quantity)
	}{
		{"Add", a.Add, (*resource.Quantity).Add},
		{"Sub", a.Sub, (*resource.Quantity).Sub},
	} {
		got, err := op.ours(b)
		want := a.ToResource()
		op.ref(&want, b.ToResource())
		gotR := got.ToResource()
		switch {
		case err != nil:
			if !errors.Is(err, ErrRange) || refFits(want) {
				t.Fatalf("%v.%s(%v) = %v; apimachinery says %s", a, op.name, b, err, refCanonical(want))
			}
		case gotR.Cmp(want) != 0 || got.String() != refCanonical(want):
			t.Fatalf("%v.%s(%v) = %v; apimachinery says %s", a, op.name, b, got, refCanonical(want))
		case !got.IsZero() && got.Format() != formatOf(want.Format):
			t.Fatalf("%v.%s(%v) has format %v; apimachinery's has %v", a, op.name, b, got.Format(), want.Format)
		}
	}
	if z, err := a.Add(a.Neg()); err != nil || z != (Quantity{}) {
		t.Fatalf("%v + -%v = %#v, %v", a, a, z, err)
	}
}

func TestPropStringRoundTrip(t *testing.T) { rapid.Check(t, propStringRoundTrip) }
func TestPropCmp(t *testing.T)             { rapid.Check(t, propCmp) }
func TestPropAppendText(t *testing.T)      { rapid.Check(t, propAppendText) }
func TestPropJSONRoundTrip(t *testing.T)   { rapid.Check(t, propJSONRoundTrip) }
func TestPropAddSub(t *testing.T)          { rapid.Check(t, propAddSub) }

func FuzzPropStringRoundTrip(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propStringRoundTrip)) }
func FuzzPropCmp(f *testing.F)             { f.Fuzz(rapid.MakeFuzz(propCmp)) }
func FuzzPropAppendText(f *testing.F)      { f.Fuzz(rapid.MakeFuzz(propAppendText)) }
func FuzzPropJSONRoundTrip(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propJSONRoundTrip)) }
func FuzzPropAddSub(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propAddSub)) }
