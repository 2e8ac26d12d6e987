package validate_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

func named(name string) *instancetype.InstanceType {
	it := seedType()
	it.Name = name
	return it
}

func TestInstanceTypes(t *testing.T) {
	items := field.NewPath("items")
	tests := []struct {
		name string
		srcs []validate.Source
		want [][]finding
	}{
		{
			name: "distinct names",
			srcs: []validate.Source{{InstanceType: named("a")}, {InstanceType: named("b"), Path: items.Index(0)}},
			want: [][]finding{nil, nil},
		},
		{
			name: "custom defaultinstancetype is not a duplicate of the built-in",
			srcs: []validate.Source{{InstanceType: named("defaultinstancetype")}, {InstanceType: named("cpusmall")}},
			want: [][]finding{nil, nil},
		},
		{
			name: "same name in two files",
			srcs: []validate.Source{
				{InstanceType: named("gpu"), Origin: "a.yaml:1"},
				{InstanceType: named("gpu"), Origin: "b.yaml:1"},
			},
			want: [][]finding{{duplicate("metadata.name")}, nil}, // the last is in effect
		},
		{
			name: "same name three times in a list",
			srcs: []validate.Source{
				{InstanceType: named("gpu"), Path: items.Index(0)},
				{InstanceType: named("cpu"), Path: items.Index(1)},
				{InstanceType: named("gpu"), Path: items.Index(2)},
				{InstanceType: named("gpu"), Path: items.Index(3)},
			},
			want: [][]finding{{duplicate("items[0].metadata.name")}, nil, {duplicate("items[2].metadata.name")}, nil},
		},
		{
			name: "two custom defaultinstancetypes",
			srcs: []validate.Source{{InstanceType: named("defaultinstancetype")}, {InstanceType: named("defaultinstancetype")}},
			want: [][]finding{{duplicate("metadata.name")}, nil},
		},
		{
			name: "duplicate and invalid",
			srcs: []validate.Source{
				{InstanceType: named("Gpu")},
				{InstanceType: named("Gpu"), Path: items.Index(0)},
			},
			want: [][]finding{{duplicate("metadata.name"), invalid("metadata.name")}, {invalid("items[0].metadata.name")}},
		},
		{
			name: "missing names are not duplicates",
			srcs: []validate.Source{{InstanceType: named("")}, {InstanceType: named("")}},
			want: [][]finding{{required("metadata.name")}, {required("metadata.name")}},
		},
		{
			name: "nil instance type",
			srcs: []validate.Source{{InstanceType: named("a")}, {Path: items.Index(1)}},
			want: [][]finding{nil, {required("items[1]")}},
		},
		{name: "no sources", srcs: nil, want: [][]finding{}},
	}
	for _, tc := range tests {
		got := validate.InstanceTypes(tc.srcs, resolve.Options{})
		if len(got) != len(tc.srcs) {
			t.Errorf("%s: InstanceTypes returned %d lists for %d sources", tc.name, len(got), len(tc.srcs))
			continue
		}
		for i := range got {
			if f := findings(got[i]); !equalFindings(f, tc.want[i]) {
				t.Errorf("%s: InstanceTypes(...)[%d] = %v; want %v", tc.name, i, f, tc.want[i])
			}
		}
	}
}

// The detail of a duplicate says where the definition in effect, the last, is.
func TestInstanceTypesDuplicateDetail(t *testing.T) {
	srcs := []validate.Source{
		{InstanceType: named("gpu"), Origin: "a.yaml:3"},
		{InstanceType: named("gpu"), Origin: "b.yaml:9", Path: field.NewPath("items").Index(4)},
	}
	errs := validate.InstanceTypes(srcs, resolve.Options{})[0]
	if len(errs) != 1 || errs[0].BadValue != "gpu" || !strings.Contains(errs[0].Detail, "b.yaml:9 (items[4])") ||
		!strings.Contains(errs[0].Detail, "not in effect") {
		t.Errorf("InstanceTypes: %v; want a duplicate of gpu naming b.yaml:9 (items[4]) as the one in effect", errs)
	}
}

func TestInstanceTypeList(t *testing.T) {
	list := &instancetype.InstanceTypeList{Items: []instancetype.InstanceType{*named("a"), *named("b"), *named("a")}}
	list.Items[1].Spec.Resources.Limits["gpu"] = amount("1")
	got := findings(validate.InstanceTypeList(list, nil, resolve.Options{}))
	want := []finding{duplicate("items[0].metadata.name"), notSupported("items[1].spec.resources.limits[gpu]")}
	if !equalFindings(got, want) {
		t.Errorf("InstanceTypeList = %v; want %v", got, want)
	}
	if got := findings(validate.InstanceTypeList(nil, nil, resolve.Options{})); len(got) != 1 {
		t.Errorf("InstanceTypeList(nil) = %v; want one finding", got)
	}
}

func TestNodeSelector(t *testing.T) {
	ext := field.NewPath("nodeSelector")
	if errs := validate.NodeSelector(map[string]string{"pool": "ml", "kubernetes.io/os": "linux", "gpu": ""}, ext); errs != nil {
		t.Errorf("NodeSelector(valid) = %v; want nil", errs)
	}
	got := findings(validate.NodeSelector(map[string]string{"pool": "m l", "b k": "x", "ok": "y"}, ext))
	want := []finding{invalid("nodeSelector[b k]"), invalid("nodeSelector[pool]")}
	if !equalFindings(got, want) {
		t.Errorf("NodeSelector = %v; want %v", got, want)
	}
}
