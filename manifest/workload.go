package manifest

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
)

// mlflowModel is the model.type of an MLflow model deployment.
const mlflowModel = "mlflow_model"

// workload decodes the fields of a deployment or job that resolution needs; the rest of the
// document is only checked for duplicate keys.
func (d *decoder) workload(n *yaml.Node, kind resolve.WorkloadKind) *resolve.Workload {
	w := &resolve.Workload{Kind: kind}
	var p *field.Path
	d.entries(n, p, true, func(key string, _, v *yaml.Node) {
		fp := p.Child(key)
		switch {
		case key == "name":
			w.Name = d.str(v, fp)
		case key == "instance_type" && kind == resolve.Deployment:
			w.InstanceType = d.str(v, fp)
		case key == "model" && kind == resolve.Deployment && v.Kind == yaml.MappingNode:
			d.entries(v, fp, true, func(key string, _, v *yaml.Node) {
				if key == "type" && v.Kind == yaml.ScalarNode {
					w.MLflow = d.str(v, fp.Child(key)) == mlflowModel
					return
				}
				d.checkTree(v, fp.Child(key))
			})
		case key == "resources" && kind == resolve.Deployment:
			if isNull(v) {
				return
			}
			w.Resources = &instancetype.ResourceRequirements{}
			d.resources(v, fp, w.Resources)
		case key == "resources" && kind == resolve.Job:
			if !d.mapping(v, fp) {
				return
			}
			d.entries(v, fp, true, func(key string, _, v *yaml.Node) {
				if key == "instance_type" {
					w.InstanceType = d.str(v, fp.Child(key))
					return
				}
				d.checkTree(v, fp.Child(key))
			})
		default:
			d.checkTree(v, fp)
		}
	})
	return w
}
