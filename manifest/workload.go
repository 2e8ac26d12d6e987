package manifest

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
)

// mlflowModel is the model.type of an MLflow model deployment.
const mlflowModel = "mlflow_model"

// deployment decodes the fields of the online deployment n, at the current path, that
// resolution needs; the rest of it is only checked for duplicate keys and what kubectl would
// refuse.
func (d *decoder) deployment(n *yaml.Node) *resolve.Workload {
	w := &resolve.Workload{Kind: resolve.Deployment}
	d.object(n, func(key string, _, v *yaml.Node) {
		switch key {
		case "name":
			w.Name = d.str(v, false)
		case "instance_type":
			w.InstanceType = d.str(v, false)
		case "model":
			d.model(v, w)
		case "resources":
			if !isNull(v) {
				w.Resources = &instancetype.ResourceRequirements{}
				d.resources(v, w.Resources)
			}
		default:
			d.checkTree(v)
		}
	})
	return w
}

// model reads model.type of a deployment.
func (d *decoder) model(n *yaml.Node, w *resolve.Workload) {
	if n.Kind != yaml.MappingNode {
		d.checkTree(n) // a model named by reference (azureml:my-model:1)
		return
	}
	d.walk(n, false, func(key string, _, v *yaml.Node) {
		if key == "type" && v.Kind == yaml.ScalarNode {
			w.MLflow = d.str(v, false) == mlflowModel
			return
		}
		d.checkTree(v)
	})
}

// job decodes the fields of the command job, sweep job or pipeline step n, at the current
// path, that resolution needs: its name and resources.instance_type (or, in the older form,
// compute.target and compute.instance_type).
//
// resources.instance_type is where Azure ML's job schema puts the instance type today; the
// older form's compute.instance_type is read only when there is none (no key, or null). A
// job that names one in both, and different ones, has a finding at compute.instance_type,
// which is ignored.
func (d *decoder) job(n *yaml.Node) *resolve.Workload {
	w := &resolve.Workload{Kind: resolve.Job}
	var current, legacy namedType
	d.object(n, func(key string, _, v *yaml.Node) {
		switch {
		case key == "name" || key == "display_name" && w.Name == "":
			w.Name = d.str(v, false)
		case key == "resources":
			current = d.jobResources(v)
		case key == "compute" && v.Kind == yaml.MappingNode:
			legacy = d.legacyCompute(v)
		case key == "compute" && v.Kind == yaml.SequenceNode:
			d.wrongShape(v, "a compute target's name", "compute: azureml:NAME; or, in the older form, compute: {target: …, instance_type: …}")
			d.checkTree(v)
		case key == "compute" && v.Kind == yaml.ScalarNode:
			d.str(v, false) // a compute target's name
		default:
			d.checkTree(v)
		}
	})
	switch {
	case current.set:
		w.InstanceType = current.name
		if legacy.set && !current.refused && !legacy.refused && legacy.name != current.name {
			d.addAt(legacy.key, field.Invalid(legacy.path, clip.String(legacy.name),
				"ignored: resources.instance_type names "+clip.Quote(current.name)+", the instance type in effect; "+
					"name it there only (compute.instance_type is the older form)").WithOrigin(rules.LegacyForm))
		}
	case legacy.set:
		w.InstanceType = legacy.name
		w.LegacyCompute = true
	}
	return w
}

// namedType is an instance type a job names in one place.
type namedType struct {
	set     bool // the key is written, with a value other than null
	refused bool // the value is not a string: decoding reported it
	name    string
	key     *yaml.Node
	path    *field.Path
}

// instanceTypeField decodes the value v of the instance_type key k at the current path.
func (d *decoder) instanceTypeField(k, v *yaml.Node) namedType {
	if isNull(v) {
		return namedType{}
	}
	before := d.refusals
	name := d.str(v, false)
	return namedType{set: true, refused: d.refusals > before, name: name, key: k, path: d.path.build()}
}

// jobResources reads a job's resources: instance_type, and the other settings of a job's
// resources (instance_count, shm_size, …), which are only checked for duplicate keys. A
// job has no requests or limits: those are unknown fields.
func (d *decoder) jobResources(n *yaml.Node) namedType {
	var it namedType
	d.object(n, func(key string, k, v *yaml.Node) {
		switch key {
		case "instance_type":
			it = d.instanceTypeField(k, v)
		case "requests", "limits":
			d.addTyped(k, field.Forbidden(d.path.build(), "unknown field \""+key+"\": a job gets its requests and limits from its instance type; set them in an InstanceType, or use an online deployment's resources").WithOrigin(rules.UnknownField), UnknownField)
			d.checkTree(v)
		default:
			d.checkTree(v)
		}
	})
	return it
}

// legacyCompute reads the older form of a job's compute, a mapping of target and
// instance_type.
func (d *decoder) legacyCompute(n *yaml.Node) namedType {
	var it namedType
	d.walk(n, false, func(key string, k, v *yaml.Node) {
		if key == "instance_type" {
			it = d.instanceTypeField(k, v)
			return
		}
		d.checkTree(v)
	})
	return it
}

// wrongShape reports a section of the wrong kind of node at the current path, whose value
// is then refused, as wrongType does, with an example of the right shape.
func (d *decoder) wrongShape(n *yaml.Node, want, example string) {
	d.refused()
	d.add(field.TypeInvalid(d.path.build(), badValue(n), "must be "+want+", not "+kindName(n)+" ("+example+")").WithOrigin(rules.WrongType))
}

// pipeline decodes the pipeline job n: each step under jobs that names an instance type and
// runs on a compute target (its own compute, or the pipeline's settings.default_compute or
// compute) is a workload, given to add with its path (jobs.NAME); a step that names one
// but runs on no compute target is skipped, with why. jobs of another shape than a mapping
// of steps (or null), and a step that is not a mapping (nor null), are findings. The rest
// of the document is checked for duplicate keys and what kubectl would refuse.
func (d *decoder) pipeline(n *yaml.Node, add func(*field.Path, *yaml.Node, *resolve.Workload, field.ErrorList), skip func(line int, reason string)) {
	budget := MaxNodes
	defaultCompute := false
	if k, v := lookup(n, "settings", &budget); k != nil && v.Kind == yaml.MappingNode {
		if k, v := lookup(v, "default_compute", &budget); k != nil && !isNull(v) {
			defaultCompute = true
		}
	}
	if k, v := lookup(n, "compute", &budget); k != nil && !isNull(v) {
		defaultCompute = true
	}
	d.walk(n, false, func(key string, _, v *yaml.Node) {
		switch {
		case key != "jobs":
			d.checkTree(v)
		case v.Kind != yaml.MappingNode:
			if !isNull(v) { // null: no steps
				d.wrongShape(v, "a mapping of step names to jobs", "jobs: {train: {command: …, resources: {instance_type: …}}}")
			}
			d.checkTree(v)
		default:
			d.walk(v, false, func(name string, _, s *yaml.Node) {
				names, compute := stepShape(s, &budget)
				switch {
				case s.Kind != yaml.MappingNode:
					if !isNull(s) {
						d.wrongShape(s, "a mapping", "a step is a job: command, compute, resources, …")
					}
					d.checkTree(s)
				case !names:
					d.checkTree(s) // its instance type is its compute's business
				case !compute && !defaultCompute:
					skip(s.Line, "pipeline step "+clip.Quote(name)+" is serverless (no compute, and no settings.default_compute): its instance_type is an Azure VM size")
					d.checkTree(s)
				default:
					from := len(d.errs)
					w := d.job(s)
					add(d.path.build(), s, w, d.since(from))
				}
			})
		}
	})
}

// stepShape tells whether a pipeline step names an instance type (in resources, or in the
// older compute mapping) and whether it names its own compute. A step whose resources are
// not a mapping (nor null) counts as naming one, so that its resources are decoded, and
// their shape reported.
func stepShape(s *yaml.Node, budget *int) (names, compute bool) {
	if s.Kind != yaml.MappingNode {
		return false, false
	}
	if k, v := lookup(s, "resources", budget); k != nil && v.Kind == yaml.MappingNode {
		if k, _ := lookup(v, "instance_type", budget); k != nil {
			names = true
		}
	} else if k != nil && !isNull(v) {
		names = true
	}
	if k, v := lookup(s, "compute", budget); k != nil && !isNull(v) {
		compute = true
		if v.Kind == yaml.MappingNode {
			if k, _ := lookup(v, "instance_type", budget); k != nil {
				names = true
			}
		}
	}
	return names, compute
}

// endpoint decodes the online endpoint n, written with its deployments inline, an older
// form: each item of deployments is a deployment, given to add with its path
// (deployments[i]) and the node where it is written. deployments of another shape than a
// list (or null) is a finding.
func (d *decoder) endpoint(n *yaml.Node, add func(*field.Path, *yaml.Node, *resolve.Workload, field.ErrorList)) {
	d.walk(n, false, func(key string, _, v *yaml.Node) {
		switch {
		case key != "deployments":
			d.checkTree(v)
		case v.Kind != yaml.SequenceNode:
			if !isNull(v) { // null: no deployments
				d.wrongShape(v, "a list of deployments", "deployments: [{name: blue, instance_type: …}]")
			}
			d.checkTree(v)
		default:
			// An item is where it is written: an alias's line, not its anchor's.
			d.items(v, func(_ int, written, e *yaml.Node) {
				from := len(d.errs)
				w := d.deployment(e)
				add(d.path.build(), written, w, d.since(from))
			})
		}
	})
}
