package instancetype_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
)

func TestQuantities(t *testing.T) {
	type name string
	l := instancetype.ResourceList{
		"cpu": instancetype.MustParseAmount("0.1"), "memory": instancetype.MustParseAmount("0.2Gi"),
		"nvidia.com/gpu": {}, "bad": instancetype.ParseAmount("2Gx"),
	}
	got := instancetype.Quantities[name](l)
	if len(got) != 2 {
		t.Fatalf("Quantities(%v) = %v; want cpu and memory only", l, got)
	}
	for n, want := range map[name]string{"cpu": "100m", "memory": "214748364800m"} {
		q := got[n]
		if s := q.String(); s != want {
			t.Errorf("Quantities(...)[%s] = %s; want %s", n, s, want)
		}
	}
	if got := instancetype.Quantities[name](instancetype.ResourceList{"cpu": {}}); got != nil {
		t.Errorf("Quantities(unset) = %v; want nil", got)
	}
	got["cpu"] = got["memory"] // the map is the caller's
	if l["cpu"].String() != "0.1" {
		t.Errorf("writing the result changed the list")
	}
}
