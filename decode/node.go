package decode

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Node decodes what the fit check needs of the v1 Node v (as kubectl get nodes prints it)
// at path p of its document: metadata.name and labels, spec.unschedulable and taints,
// status.allocatable. The rest is not checked. A value of the wrong type, or an
// allocatable amount that is not a quantity, is a finding and left out (rule nodes, or
// wrong-type); a node without status.allocatable is a finding too, and offers nothing.
func Node(v any, p *field.Path, src strict.Written) (cluster.Node, field.ErrorList) {
	d := &strict.Decoder{Src: src}
	var n cluster.Node
	m, ok := d.Mapping(v, p)
	if !ok {
		return n, d.Errs
	}
	if meta, ok := d.Mapping(m["metadata"], p.Child("metadata")); ok {
		n.Name = d.Str(meta["name"], p.Child("metadata", "name"), false)
		if l, ok := d.Mapping(meta["labels"], p.Child("metadata", "labels")); ok {
			n.Labels = make(map[string]string, len(l))
			for _, k := range strict.SortedKeys(l) {
				n.Labels[k] = d.Str(l[k], p.Child("metadata", "labels").Key(k), true)
			}
		}
	}
	if spec, ok := d.Mapping(m["spec"], p.Child("spec")); ok {
		switch u := spec["unschedulable"].(type) {
		case bool:
			n.Unschedulable = u
		case nil:
		default:
			d.WrongType(u, p.Child("spec", "unschedulable"), "true or false")
		}
		n.Taints = taints(d, spec["taints"], p.Child("spec", "taints"))
	}
	status, _ := d.Mapping(m["status"], p.Child("status"))
	alloc, hasAlloc := status["allocatable"]
	if !hasAlloc {
		d.Errs = append(d.Errs, field.Required(p.Child("status", "allocatable"),
			"a node without status.allocatable offers nothing to pods: give the nodes as kubectl get nodes -o yaml prints them").WithOrigin(rules.Nodes))
	}
	ap := p.Child("status", "allocatable")
	if a, ok := d.Mapping(alloc, ap); ok {
		for _, name := range strict.SortedKeys(a) {
			before := len(d.Errs)
			amount := d.Amount(a[name], ap.Key(name))
			q, err := amount.Quantity()
			switch {
			case err == nil:
				if n.Allocatable == nil {
					n.Allocatable = make(map[instancetype.ResourceName]quantity.Quantity, len(a))
				}
				n.Allocatable[instancetype.ResourceName(name)] = q
			case amount.IsSet() && len(d.Errs) == before:
				d.Errs = append(d.Errs, field.Invalid(ap.Key(name), clip.String(amount.String()), "not a quantity: "+quantityProblem(err)).WithOrigin(rules.Nodes))
			}
		}
	}
	return n, d.Errs
}

// taints decodes spec.taints.
func taints(d *strict.Decoder, v any, p *field.Path) []cluster.Taint {
	l, ok := v.([]any)
	if !ok {
		if v != nil {
			d.WrongType(v, p, "a list of taints")
		}
		return nil
	}
	var out []cluster.Taint
	for i, e := range l {
		m, ok := d.Mapping(e, p.Index(i))
		if !ok {
			continue
		}
		out = append(out, cluster.Taint{
			Key:    d.Str(m["key"], p.Index(i).Child("key"), false),
			Value:  d.Str(m["value"], p.Index(i).Child("value"), false),
			Effect: d.Str(m["effect"], p.Index(i).Child("effect"), false),
		})
	}
	return out
}

// quantityProblem is why quantity.Parse refused an amount, without the text.
func quantityProblem(err error) string {
	var pe *quantity.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
