package quantity

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// jsonTests are JSON values a quantity field may hold, with our reading and
// apimachinery's, which differ only on escapes and on strings that are not valid JSON.
var jsonTests = []struct {
	in   string
	want string // String(), or "" when refused
	ref  string // apimachinery's canonical String(), or "" when it refuses
}{
	{`"100m"`, "100m", "100m"},
	{`"2Gi"`, "2Gi", "2Gi"},
	{`1`, "1", "1"},
	{`0.5`, "500m", "500m"},
	{`-1`, "-1", "-1"},
	{`1e3`, "1e3", "1e3"},
	{`1.5E+3`, "1500", "1500"},
	{`" 1"`, "1", "1"}, // white space inside the quotes is trimmed
	{`"1 "`, "1", "1"},
	{"\"\u00a01\u00a0\"", "1", "1"}, // raw U+00A0 is white space too
	{`"2Gx"`, "", ""},
	{`""`, "", ""},
	{`"null"`, "", ""},
	{`true`, "", ""},
	{`"\x"`, "", ""}, // not JSON
	{`"\"1\""`, "", ""},
	// Escapes are decoded, as JSON defines them; apimachinery reads the backslash.
	{`"\u0031"`, "1", ""},
	{`"1\u0030\u0030m"`, "100m", ""},
	{`"\u00a01\u00a0"`, "1", ""},
	{`"\n1"`, "1", ""},
	{`"\u0032Gx"`, "", ""},
	// A raw control character is not allowed in a JSON string; apimachinery trims it.
	{"\"1\t\"", "", "1"},
	// Invalid UTF-8 is U+FFFD to JSON: no quantity either way.
	{"\"\xff1\"", "", ""},
}

func TestUnmarshalJSON(t *testing.T) {
	for _, tt := range jsonTests {
		var q Quantity
		err := q.UnmarshalJSON([]byte(tt.in))
		switch {
		case tt.want == "":
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("UnmarshalJSON(%s) = %v, %v; want a *ParseError", tt.in, q, err)
			}
		case err != nil || q.String() != tt.want:
			t.Errorf("UnmarshalJSON(%s) = %v, %v; want %s", tt.in, q, err, tt.want)
		}
		if json.Valid([]byte(tt.in)) { // what encoding/json hands to UnmarshalJSON
			var p Quantity
			if err := json.Unmarshal([]byte(tt.in), &p); (err == nil) != (tt.want != "") || p != q {
				t.Errorf("json.Unmarshal(%s) = %v, %v; UnmarshalJSON gives %v", tt.in, p, err, q)
			}
		}
		var r resource.Quantity
		rerr := r.UnmarshalJSON([]byte(tt.in))
		switch {
		case tt.ref == "" && rerr == nil:
			t.Errorf("resource.Quantity.UnmarshalJSON(%s) = %s; the table says it refuses", tt.in, refCanonical(r))
		case tt.ref != "" && (rerr != nil || refCanonical(r) != tt.ref):
			t.Errorf("resource.Quantity.UnmarshalJSON(%s) = %s, %v; the table says %s", tt.in, refCanonical(r), rerr, tt.ref)
		}
	}
}

// TestUnmarshalJSONEscapes: a string with escapes reads as the string it decodes to.
func TestUnmarshalJSONEscapes(t *testing.T) {
	for _, s := range []string{"100m", "2Gi", " 1 ", "2Gx", "", "1\n"} {
		plain, _ := json.Marshal(s)
		var esc []byte // every character as \uXXXX
		esc = append(esc, '"')
		for _, r := range s {
			esc = fmt.Appendf(esc, "\\u%04x", r)
		}
		esc = append(esc, '"')
		var a, b Quantity
		errA, errB := a.UnmarshalJSON(plain), b.UnmarshalJSON(esc)
		if a != b || (errA == nil) != (errB == nil) {
			t.Errorf("UnmarshalJSON(%s) = %v, %v but UnmarshalJSON(%s) = %v, %v", plain, a, errA, esc, b, errB)
		}
	}
}

func TestUnmarshalJSONNullAndFailure(t *testing.T) {
	var h Quantity // apimachinery never returns on this one
	if err := json.Unmarshal([]byte(`"1e3061300070"`), &h); !errors.Is(err, ErrRange) {
		t.Errorf("Unmarshal(\"1e3061300070\") = %v; want ErrRange", err)
	}
	q := MustParse("2Gi")
	if err := json.Unmarshal([]byte(`null`), &q); err != nil || q != (Quantity{}) {
		t.Errorf("Unmarshal(null) = %#v, %v; want the zero Quantity, as apimachinery", q, err)
	}
	q = MustParse("2Gi")
	if err := q.UnmarshalJSON([]byte(`"2Gx"`)); err == nil || q != MustParse("2Gi") {
		t.Errorf("a failed UnmarshalJSON changed q to %v (err %v)", q, err)
	}
	if err := q.UnmarshalText([]byte(" 1")); err == nil {
		t.Errorf("UnmarshalText trims space; only UnmarshalJSON does, as apimachinery")
	}
}

func TestMarshalJSONInStruct(t *testing.T) {
	type limits struct {
		CPU    Quantity `json:"cpu"`
		Memory Quantity `json:"memory"`
	}
	in := limits{MustParse("1.5"), MustParse("1024Mi")}
	data, err := json.Marshal(in)
	if err != nil || string(data) != `{"cpu":"1500m","memory":"1Gi"}` {
		t.Fatalf("Marshal = %s, %v", data, err)
	}
	var out limits
	if err := json.Unmarshal(data, &out); err != nil || out != in {
		t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", data, out, err, in)
	}
}
