package quantity

import (
	"encoding/json"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// jsonTests are JSON values a quantity field may hold, with apimachinery's reading.
var jsonTests = []struct {
	in   string
	want string // String(), or "" when refused
}{
	{`"100m"`, "100m"},
	{`"2Gi"`, "2Gi"},
	{`1`, "1"},
	{`0.5`, "500m"},
	{`-1`, "-1"},
	{`1e3`, "1e3"},
	{`1.5E+3`, "1500"},
	{`" 1"`, "1"}, // apimachinery trims space inside the quotes
	{`"1 "`, "1"},
	{`"\u00a01\u00a0"`, ""}, // an escape is not decoded
	{`"\u0031"`, ""},
	{`"2Gx"`, ""},
	{`""`, ""},
	{`"null"`, ""},
	{`true`, ""},
}

func TestUnmarshalJSON(t *testing.T) {
	for _, tt := range jsonTests {
		var q Quantity
		err := json.Unmarshal([]byte(tt.in), &q)
		var r resource.Quantity
		rerr := json.Unmarshal([]byte(tt.in), &r)
		switch {
		case tt.want == "":
			var pe *ParseError
			if err == nil || (!errors.As(err, &pe) && tt.in != `true`) {
				t.Errorf("Unmarshal(%s) = %v, %v; want a *ParseError", tt.in, q, err)
			}
			if rerr == nil {
				t.Errorf("Unmarshal(%s): apimachinery accepts it as %s", tt.in, r.String())
			}
		case err != nil || q.String() != tt.want:
			t.Errorf("Unmarshal(%s) = %v, %v; want %s", tt.in, q, err, tt.want)
		case rerr != nil || refCanonical(r) != tt.want:
			t.Errorf("Unmarshal(%s): apimachinery says %s, %v", tt.in, refCanonical(r), rerr)
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
