package fit_test

import (
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// res builds a resource map from name, amount, name, amount...
func res(kv ...string) map[instancetype.ResourceName]quantity.Quantity {
	if len(kv)%2 != 0 {
		panic("res: odd number of arguments")
	}
	m := make(map[instancetype.ResourceName]quantity.Quantity, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[instancetype.ResourceName(kv[i])] = quantity.MustParse(kv[i+1])
	}
	return m
}

// sel builds a selector from "k=v" pairs.
func sel(pairs ...string) map[string]string {
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			panic("sel: no = in " + p)
		}
		m[k] = v
	}
	return m
}

// node builds a node of a pool: its name as kubernetes.io/hostname, the pool as agentpool,
// plus extra labels.
func node(name, pool string, alloc map[instancetype.ResourceName]quantity.Quantity, extra ...string) cluster.Node {
	l := sel(extra...)
	l["kubernetes.io/hostname"] = name
	l["agentpool"] = pool
	l["kubernetes.io/os"] = "linux"
	return cluster.Node{Name: name, Labels: l, Allocatable: alloc}
}

func tainted(x cluster.Node, ts ...cluster.Taint) cluster.Node {
	x.Taints = append(x.Taints, ts...)
	return x
}

func cordoned(x cluster.Node) cluster.Node {
	x.Unschedulable = true
	return tainted(x, cluster.Taint{Key: "node.kubernetes.io/unschedulable", Effect: cluster.NoSchedule})
}

var skuGPU = cluster.Taint{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}

// The paths the lead's reader passes for an instance type.
var selectorPath = field.NewPath("spec", "nodeSelector")

func requestPath(name instancetype.ResourceName) *field.Path {
	if name == instancetype.ResourceCPU || name == instancetype.ResourceMemory {
		return field.NewPath("spec", "resources", "requests").Key(string(name))
	}
	return field.NewPath("spec", "resources", "limits").Key(string(name))
}

// counts are the counts of a Result.
type counts struct{ Matching, Candidates, Fits, Tainted, Cordoned, WouldFit int }

func countsOf(r fit.Result) counts {
	return counts{r.Matching, r.Candidates, r.Fits, r.Tainted, r.Cordoned, r.WouldFit}
}

// finding is what tests match a field error on: its type and path, not its text.
type finding struct {
	Type  field.ErrorType
	Field string
}

func findings(errs field.ErrorList) []finding {
	var fs []finding
	for _, e := range errs {
		fs = append(fs, finding{e.Type, e.Field})
	}
	return fs
}

func invalid(f string) finding { return finding{field.ErrorTypeInvalid, f} }

// diffResults describes how two results differ, "" if they are equal.
func diffResults(got, want fit.Result) string {
	if reflect.DeepEqual(got, want) {
		return ""
	}
	return fmt.Sprintf("\n got  %s\n want %s", show(got), show(want))
}

func show(r fit.Result) string {
	s := fmt.Sprintf("%+v", r)
	if r.Miss != nil {
		s += fmt.Sprintf(" Miss={Carried:%v Nodes:%d Lacking:[", r.Miss.Carried, r.Miss.Nodes)
		for _, l := range r.Miss.Lacking {
			s += fmt.Sprintf(" {%v %q +%d}", l.Pair, l.Values, l.MoreValues)
		}
		s += "]}"
	}
	return s
}
