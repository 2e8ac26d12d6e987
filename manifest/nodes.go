package manifest

import (
	"errors"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/quantity"
)

// node decodes what the fit check needs of a v1 Node (as kubectl get nodes prints it):
// metadata.name and labels, spec.unschedulable and taints, status.allocatable. The rest
// is checked for duplicate keys only. A value of the wrong type, or an allocatable amount
// that is not a quantity, is a finding and left out; a node without status.allocatable is
// a finding too, and offers nothing.
func (d *decoder) node(n *yaml.Node, p *path) fit.Node {
	var nd fit.Node
	if !d.mapping(n, p) || !d.descend(n) {
		return nd
	}
	defer d.ascend()
	sawAllocatable := false
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return nd
		}
		if !ok {
			continue
		}
		switch key {
		case "metadata":
			d.nodeMeta(v, &fp, &nd)
		case "spec":
			d.nodeSpec(v, &fp, &nd)
		case "status":
			sawAllocatable = d.nodeStatus(v, &fp, &nd)
		default:
			d.checkTree(v, &fp)
		}
	}
	if !sawAllocatable {
		fp := p.child("status")
		ap := fp.child("allocatable")
		d.add(field.Required(ap.build(), "a node without status.allocatable offers nothing to pods: give the nodes as kubectl get nodes -o yaml prints them"))
	}
	return nd
}

func (d *decoder) nodeMeta(n *yaml.Node, p *path, nd *fit.Node) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		switch {
		case !ok:
		case key == "name":
			d.keepName(&fp, c[i])
			nd.Name = d.str(v, &fp, false)
		case key == "labels":
			nd.Labels = d.stringMap(v, &fp)
		default:
			d.checkTree(v, &fp)
		}
	}
}

func (d *decoder) nodeSpec(n *yaml.Node, p *path, nd *fit.Node) {
	if !d.mapping(n, p) || !d.descend(n) {
		return
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return
		}
		switch {
		case !ok:
		case key == "unschedulable":
			switch {
			case v.Kind == yaml.ScalarNode && v.Tag == tagBool:
				nd.Unschedulable = boolValue(v.Value)
			case !isNull(v):
				d.wrongType(v, &fp, "true or false")
			}
		case key == "taints":
			nd.Taints = d.taints(v, &fp)
		default:
			d.checkTree(v, &fp)
		}
	}
}

func (d *decoder) taints(n *yaml.Node, p *path) []fit.Taint {
	if n.Kind != yaml.SequenceNode {
		if !isNull(n) {
			d.wrongType(n, p, "a list of taints")
		}
		return nil
	}
	if !d.descend(n) {
		return nil
	}
	defer d.ascend()
	var out []fit.Taint
	for j, e := range n.Content {
		ip := p.index(j)
		if e = d.visit(e, &ip); e == nil {
			return out
		}
		if !d.mapping(e, &ip) || !d.descend(e) {
			continue
		}
		var t fit.Taint
		c := d.pairs(e, &ip)
		for i := 0; i+1 < len(c); i += 2 {
			key, ok := d.keyOf(c[i], &ip)
			fp := ip.child(key)
			v := d.visit(c[i+1], &fp)
			if v == nil {
				d.ascend()
				return out
			}
			switch {
			case !ok:
			case key == "key":
				t.Key = d.str(v, &fp, false)
			case key == "value":
				t.Value = d.str(v, &fp, false)
			case key == "effect":
				t.Effect = d.str(v, &fp, false)
			default:
				d.checkTree(v, &fp)
			}
		}
		d.ascend()
		out = append(out, t)
	}
	return out
}

// nodeStatus reads status.allocatable and reports whether there was one.
func (d *decoder) nodeStatus(n *yaml.Node, p *path, nd *fit.Node) bool {
	if !d.mapping(n, p) || !d.descend(n) {
		return false
	}
	defer d.ascend()
	saw := false
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return saw
		}
		if !ok || key != "allocatable" {
			d.checkTree(v, &fp)
			continue
		}
		saw = true
		for name, a := range d.resourceList(v, &fp) {
			kp := fp.key(string(name))
			q, err := a.Quantity()
			switch {
			case err == nil:
				if nd.Allocatable == nil {
					nd.Allocatable = make(map[instancetype.ResourceName]quantity.Quantity)
				}
				nd.Allocatable[name] = q
			case a.IsSet() && !d.refused[kp.String()]:
				d.add(field.Invalid(kp.build(), clip.String(a.String()), "not a quantity: "+quantityProblem(err)))
			}
		}
	}
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
