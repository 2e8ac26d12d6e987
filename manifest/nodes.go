package manifest

import (
	"errors"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/quantity"
)

// node decodes what the fit check needs of the v1 Node n (as kubectl get nodes prints it),
// at the current path: metadata.name and labels, spec.unschedulable and taints,
// status.allocatable. The rest is checked for duplicate keys only. A value of the wrong
// type, or an allocatable amount that is not a quantity, is a finding and left out; a node
// without status.allocatable is a finding too, and offers nothing.
func (d *decoder) node(n *yaml.Node) cluster.Node {
	var nd cluster.Node
	sawAllocatable := false
	d.object(n, func(key string, _, v *yaml.Node) {
		switch key {
		case "metadata":
			d.nodeMeta(v, &nd)
		case "spec":
			d.nodeSpec(v, &nd)
		case "status":
			sawAllocatable = d.nodeStatus(v, &nd)
		default:
			d.checkTree(v)
		}
	})
	if n.Kind == yaml.MappingNode && !sawAllocatable {
		d.path.field("status")
		d.path.field("allocatable")
		d.add(field.Required(d.path.build(), "a node without status.allocatable offers nothing to pods: give the nodes as kubectl get nodes -o yaml prints them").WithOrigin(rules.Nodes))
		d.path.pop()
		d.path.pop()
	}
	return nd
}

func (d *decoder) nodeMeta(n *yaml.Node, nd *cluster.Node) {
	d.object(n, func(key string, _, v *yaml.Node) {
		switch key {
		case "name":
			nd.Name = d.str(v, false)
		case "labels":
			nd.Labels = d.stringMap(v)
		default:
			d.checkTree(v)
		}
	})
}

func (d *decoder) nodeSpec(n *yaml.Node, nd *cluster.Node) {
	d.object(n, func(key string, _, v *yaml.Node) {
		switch key {
		case "unschedulable":
			switch {
			case v.Kind == yaml.ScalarNode && v.Tag == tagBool:
				nd.Unschedulable = boolValue(v.Value)
			case !isNull(v):
				d.wrongType(v, "true or false")
			}
		case "taints":
			nd.Taints = d.taints(v)
		default:
			d.checkTree(v)
		}
	})
}

func (d *decoder) taints(n *yaml.Node) []cluster.Taint {
	if n.Kind != yaml.SequenceNode {
		if !isNull(n) {
			d.wrongType(n, "a list of taints")
		}
		return nil
	}
	var out []cluster.Taint
	d.items(n, func(_ int, _, e *yaml.Node) {
		if e.Kind != yaml.MappingNode {
			d.mapping(e) // reports what is not null
			return
		}
		var t cluster.Taint
		d.walk(e, false, func(key string, _, v *yaml.Node) {
			switch key {
			case "key":
				t.Key = d.str(v, false)
			case "value":
				t.Value = d.str(v, false)
			case "effect":
				t.Effect = d.str(v, false)
			default:
				d.checkTree(v)
			}
		})
		out = append(out, t)
	})
	return out
}

// nodeStatus reads status.allocatable and reports whether there was one. An amount that is
// no quantity is a finding, unless decoding refused it already.
func (d *decoder) nodeStatus(n *yaml.Node, nd *cluster.Node) bool {
	saw := false
	d.object(n, func(key string, _, v *yaml.Node) {
		if key != "allocatable" {
			d.checkTree(v)
			return
		}
		saw = true
		if !d.mapping(v) {
			return
		}
		d.walk(v, true, func(name string, _, v *yaml.Node) {
			before := d.refusals
			a := d.amount(v)
			q, err := a.Quantity()
			switch {
			case err == nil:
				if nd.Allocatable == nil {
					nd.Allocatable = make(map[instancetype.ResourceName]quantity.Quantity)
				}
				nd.Allocatable[instancetype.ResourceName(name)] = q
			case a.IsSet() && d.refusals == before:
				d.add(field.Invalid(d.path.build(), clip.String(a.String()), "not a quantity: "+quantityProblem(err)).WithOrigin(rules.Nodes))
			}
		})
	})
	return saw
}

// quantityProblem is why quantity.Parse refused an amount, without the text.
func quantityProblem(err error) string {
	var pe *quantity.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
