package manifest

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/workload"
)

// mlflowModel is the model.type of an MLflow model deployment.
const mlflowModel = "mlflow_model"

// deployment decodes the fields of the online deployment n, at the current path, that
// resolution needs; the rest of it is only checked for duplicate keys and what kubectl would
// refuse.
func (d *decoder) deployment(n *yaml.Node) *workload.Workload {
	w := &workload.Workload{Kind: workload.OnlineDeployment}
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
				d.azureResources(v, w.Resources)
			}
		default:
			d.checkTree(v)
		}
	})
	return w
}

// model reads model.type of a deployment.
func (d *decoder) model(n *yaml.Node, w *workload.Workload) {
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
func (d *decoder) job(n *yaml.Node) *workload.Workload {
	w := &workload.Workload{Kind: workload.ComputeJob}
	var current, legacy namedType
	var legacyKey *yaml.Node
	var legacyPath *field.Path
	d.object(n, func(key string, k, v *yaml.Node) {
		switch {
		case key == "name" || key == "display_name" && w.Name == "":
			w.Name = d.str(v, false)
		case key == "resources":
			current = d.jobResources(v)
		case key == "compute" && v.Kind == yaml.MappingNode:
			legacyKey, legacyPath = k, d.path.build()
			legacy = d.legacyCompute(v, w)
		case key == "compute" && v.Kind == yaml.SequenceNode:
			d.wrongShape(v, "a compute target's name", "compute: azureml:NAME")
			d.checkTree(v)
		case key == "compute" && v.Kind == yaml.ScalarNode:
			if c := d.str(v, false); c != "" {
				w.Compute, w.ComputePath = c, d.path.build()
			}
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
	if legacyKey != nil {
		d.legacyFinding(legacyKey, legacyPath, w)
	}
	return w
}

// legacyFinding reports the older form of a job's compute, a mapping of target and
// instance_type, at its key k (path p): the Azure ML CLI v2 refuses it (its compute is a
// string), and the finding gives today's form.
func (d *decoder) legacyFinding(k *yaml.Node, p *field.Path, w *workload.Workload) {
	target := w.Compute
	if target == "" {
		target = "azureml:TARGET"
	}
	today := "compute: " + clip.String(target)
	if w.InstanceType != "" {
		today += " and resources: {instance_type: " + clip.String(w.InstanceType) + "}"
	}
	e := field.Invalid(p, field.OmitValueType{}, "the older form (compute: {target, instance_type}), which the Azure ML CLI v2 refuses "+
		"(its compute is a string: \"Not a valid string\"); write "+today)
	e.Origin = rules.LegacyComputeForm
	d.addAt(k, e)
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
// instance_type: the target is w's compute.
func (d *decoder) legacyCompute(n *yaml.Node, w *workload.Workload) namedType {
	var it namedType
	d.walk(n, false, func(key string, k, v *yaml.Node) {
		switch key {
		case "instance_type":
			it = d.instanceTypeField(k, v)
		case "target":
			if c := d.str(v, false); c != "" {
				w.Compute, w.ComputePath = c, d.path.build()
			}
		default:
			d.checkTree(v)
		}
	})
	return it
}

// wrongShape reports a section of the wrong kind of node at the current path, whose value
// is then refused, as wrongType does, with an example of the right shape.
func (d *decoder) wrongShape(n *yaml.Node, want, example string) {
	d.refused()
	d.add(field.TypeInvalid(d.path.build(), badValue(n), "must be "+want+", not "+kindName(n)+" ("+example+")").WithOrigin(rules.WrongType))
}

// pipeline decodes the pipeline job n: each step under jobs that runs on a compute target
// (its own compute, or the pipeline's settings.default_compute or compute) is a workload,
// given to add with its path (jobs.NAME), whether it names an instance type or not (one
// that names none gets the compute's default instance type, as a job does); a step on the
// serverless compute (no compute at all, or azureml:serverless) or run locally is skipped,
// with why, as is every Spark step, whatever its compute, a step that is a pipeline
// component (its own steps run), and a data transfer or import step. jobs of another
// shape than a mapping of steps (or null), and a step that is not a mapping (nor null),
// are findings. The rest of the document is checked for duplicate keys and what kubectl
// would refuse.
func (d *decoder) pipeline(n *yaml.Node, add func(*field.Path, *yaml.Node, *workload.Workload, field.ErrorList), skip func(line int, reason string)) {
	budget := MaxNodes
	var def pipelineCompute
	if k, v := lookup(n, "compute", &budget); k != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
		def = pipelineCompute{value: v.Value, path: field.NewPath("compute")}
	}
	if k, v := lookup(n, "settings", &budget); k != nil && v.Kind == yaml.MappingNode {
		if k, c := lookup(v, "default_compute", &budget); k != nil && c.Kind == yaml.ScalarNode && !isNull(c) {
			def = pipelineCompute{value: c.Value, path: field.NewPath("settings", "default_compute")}
		}
	}
	d.walk(n, false, func(key string, _, v *yaml.Node) {
		switch {
		case key == "settings" && v.Kind == yaml.MappingNode:
			// Recorded, so that a finding about settings.default_compute has its line.
			d.walk(v, false, func(_ string, _, x *yaml.Node) { d.checkTree(x) })
		case key != "jobs":
			d.checkTree(v)
		case v.Kind != yaml.MappingNode:
			if !isNull(v) { // null: no steps
				d.wrongShape(v, "a mapping of step names to jobs", "jobs: {train: {command: …, resources: {instance_type: …}}}")
			}
			d.checkTree(v)
		default:
			d.walk(v, false, func(name string, _, s *yaml.Node) {
				shape := stepShapeOf(s, &budget)
				step := "pipeline step " + clip.Quote(name)
				own := ParseCompute(shape.compute)
				vmSize := "" // why a serverless step's instance type is not one of ours
				if shape.names {
					vmSize = ": its instance_type is an Azure VM size"
				}
				switch {
				case s.Kind != yaml.MappingNode:
					if !isNull(s) {
						d.wrongShape(s, "a mapping", "a step is a job: command, compute, resources, …")
					}
					d.checkTree(s)
				case shape.typ == "spark":
					skip(s.Line, step+" is a Spark step: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes")
					d.checkTree(s)
				case shape.typ == "pipeline":
					skip(s.Line, step+" is a pipeline component (type: pipeline): its own steps run, not it")
					d.checkTree(s)
				case shape.typ == "data_transfer":
					skip(s.Line, step+" is a data transfer step (type: data_transfer): it moves data, with no instance type")
					d.checkTree(s)
				case shape.typ == "import":
					skip(s.Line, step+" is a data import step (type: import): it moves data, with no instance type")
					d.checkTree(s)
				case own.Local:
					skip(s.Line, step+" runs locally (compute: local)")
					d.checkTree(s)
				case own.Serverless:
					skip(s.Line, step+" is serverless (compute: "+clip.String(shape.compute)+")"+vmSize)
					d.checkTree(s)
				case !shape.hasCompute && def.value == "":
					skip(s.Line, step+" is serverless (no compute, and no settings.default_compute)"+vmSize)
					d.checkTree(s)
				case !shape.hasCompute && ParseCompute(def.value).Serverless:
					skip(s.Line, step+" is serverless (settings.default_compute: "+clip.String(def.value)+")"+vmSize)
					d.checkTree(s)
				default:
					from := len(d.errs)
					w := d.job(s)
					if !shape.hasCompute && w.Compute == "" {
						w.Compute, w.ComputePath = def.value, def.path
					}
					add(d.path.build(), s, w, d.since(from))
				}
			})
		}
	})
}

// pipelineCompute is a pipeline's default compute: its value as written, and where.
type pipelineCompute struct {
	value string
	path  *field.Path
}

// stepShape is what recognition reads of a pipeline step before it is decoded.
type stepShape struct {
	names      bool   // it names an instance type
	hasCompute bool   // it names a compute of its own
	compute    string // its compute, when a string
	typ        string // its type: command (or ""), sweep, spark, pipeline, …
}

// stepShapeOf tells whether a pipeline step names an instance type (in resources, or in
// the older compute mapping), whether it names its own compute, and its type. A step
// whose resources are not a mapping (nor null) counts as naming one, so that its resources
// are decoded, and their shape reported.
func stepShapeOf(s *yaml.Node, budget *int) stepShape {
	var sh stepShape
	if s.Kind != yaml.MappingNode {
		return sh
	}
	if k, v := lookup(s, "type", budget); k != nil && v.Kind == yaml.ScalarNode {
		sh.typ = v.Value
	}
	if k, v := lookup(s, "resources", budget); k != nil && v.Kind == yaml.MappingNode {
		if k, _ := lookup(v, "instance_type", budget); k != nil {
			sh.names = true
		}
	} else if k != nil && !isNull(v) {
		sh.names = true
	}
	if k, v := lookup(s, "compute", budget); k != nil && !isNull(v) {
		sh.hasCompute = true
		switch v.Kind {
		case yaml.MappingNode:
			if k, _ := lookup(v, "instance_type", budget); k != nil {
				sh.names = true
			}
		case yaml.ScalarNode:
			sh.compute = v.Value
		}
	}
	return sh
}

// endpoint decodes the online endpoint n, written with its deployments inline, an older
// form: each item of deployments is a deployment, given to add with its path
// (deployments[i]) and the node where it is written. deployments of another shape than a
// list (or null) is a finding.
func (d *decoder) endpoint(n *yaml.Node, add func(*field.Path, *yaml.Node, *workload.Workload, field.ErrorList)) {
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
