package manifest

import (
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/resolve"
)

// mlflowModel is the model.type of an MLflow model deployment.
const mlflowModel = "mlflow_model"

// deployment decodes the fields of an online deployment that resolution needs; the rest of
// the document is only checked for duplicate keys and what kubectl would refuse. The
// positions of what it decodes are recorded.
func (d *decoder) deployment(n *yaml.Node, p *path) *resolve.Workload {
	w := &resolve.Workload{Kind: resolve.Deployment}
	if !d.mapping(n, p) || !d.descend(n) {
		return w
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return w
		}
		if !ok {
			continue
		}
		switch key {
		case "name":
			d.keep(&fp, c[i])
			w.Name = d.str(v, &fp, false)
		case "instance_type":
			d.keep(&fp, c[i])
			w.InstanceType = d.str(v, &fp, false)
		case "model":
			d.keep(&fp, c[i])
			d.model(v, &fp, w)
		case "resources":
			d.keep(&fp, c[i])
			if isNull(v) {
				continue
			}
			w.Resources = &instancetype.ResourceRequirements{}
			d.resources(v, &fp, w.Resources)
		default:
			d.checkTree(v, &fp)
		}
	}
	return w
}

// model reads model.type of a deployment.
func (d *decoder) model(n *yaml.Node, p *path, w *resolve.Workload) {
	if n.Kind != yaml.MappingNode || !d.descend(n) {
		d.checkTree(n, p) // a model named by reference (azureml:my-model:1)
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
		if ok && key == "type" && v.Kind == yaml.ScalarNode {
			d.keep(&fp, c[i])
			w.MLflow = d.str(v, &fp, false) == mlflowModel
			continue
		}
		d.checkTree(v, &fp)
	}
}

// job decodes the fields of a command job, a sweep job or a pipeline step that resolution
// needs: its name and resources.instance_type (or, in the older form, compute.target and
// compute.instance_type).
//
// resources.instance_type is where Azure ML's job schema puts the instance type today; the
// older form's compute.instance_type is read only when there is none (no key, or null). A
// job that names one in both, and different ones, has a finding at compute.instance_type,
// which is ignored.
func (d *decoder) job(n *yaml.Node, p *path) *resolve.Workload {
	w := &resolve.Workload{Kind: resolve.Job}
	if !d.mapping(n, p) || !d.descend(n) {
		return w
	}
	defer d.ascend()
	var current, legacy namedType
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return w
		}
		if !ok {
			continue
		}
		switch {
		case key == "name" || key == "display_name" && w.Name == "":
			d.keep(&fp, c[i])
			w.Name = d.str(v, &fp, false)
		case key == "resources":
			d.keep(&fp, c[i])
			current = d.jobResources(v, &fp)
		case key == "compute" && v.Kind == yaml.MappingNode:
			d.keep(&fp, c[i])
			legacy = d.legacyCompute(v, &fp)
		case key == "compute" && v.Kind == yaml.SequenceNode:
			d.keep(&fp, c[i])
			d.wrongShape(v, &fp, "a compute target's name", "compute: azureml:NAME; or, in the older form, compute: {target: …, instance_type: …}")
			d.checkTree(v, &fp)
		case key == "compute" && v.Kind == yaml.ScalarNode:
			d.keep(&fp, c[i])
			d.str(v, &fp, false) // a compute target's name
		default:
			d.checkTree(v, &fp)
		}
	}
	switch {
	case current.set:
		w.InstanceType = current.name
		if legacy.set && !current.refused && !legacy.refused && legacy.name != current.name {
			e := field.Invalid(legacy.path, clip.String(legacy.name),
				"ignored: resources.instance_type names "+clip.Quote(current.name)+", the instance type in effect; "+
					"name it there only (compute.instance_type is the older form)")
			d.addPin(legacy.key, e)
			d.add(e)
		}
	case legacy.set:
		w.InstanceType = legacy.name
		w.InstanceTypeAt = []string{"compute", "instance_type"}
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

// instanceTypeField decodes the value v of an instance_type key k at p.
func (d *decoder) instanceTypeField(k, v *yaml.Node, p *path) namedType {
	d.keep(p, k)
	if isNull(v) {
		return namedType{}
	}
	name := d.str(v, p, false)
	at := p.build()
	return namedType{set: true, refused: d.refused[at.String()], name: name, key: k, path: at}
}

// jobResources reads a job's resources: instance_type, and the other settings of a job's
// resources (instance_count, shm_size, …), which are only checked for duplicate keys. A
// job has no requests or limits: those are unknown fields.
func (d *decoder) jobResources(n *yaml.Node, p *path) namedType {
	var it namedType
	if !d.mapping(n, p) || !d.descend(n) {
		return it
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return it
		}
		if !ok {
			continue
		}
		switch key {
		case "instance_type":
			it = d.instanceTypeField(c[i], v, &fp)
		case "requests", "limits":
			e := field.Forbidden(fp.build(), "unknown field \""+key+"\": a job gets its requests and limits from its instance type; set them in an InstanceType, or use an online deployment's resources")
			d.addTyped(e, UnknownField)
			d.addPin(c[i], e)
		default:
			d.checkTree(v, &fp)
		}
	}
	return it
}

// legacyCompute reads the older form of a job's compute, a mapping of target and
// instance_type.
func (d *decoder) legacyCompute(n *yaml.Node, p *path) namedType {
	var it namedType
	if !d.descend(n) {
		return it
	}
	defer d.ascend()
	c := d.pairs(n, p)
	for i := 0; i+1 < len(c); i += 2 {
		key, ok := d.keyOf(c[i], p)
		fp := p.child(key)
		v := d.visit(c[i+1], &fp)
		if v == nil {
			return it
		}
		if ok && key == "instance_type" {
			it = d.instanceTypeField(c[i], v, &fp)
			continue
		}
		d.checkTree(v, &fp)
	}
	return it
}

// wrongShape reports a section of the wrong kind of node, whose value is then refused, as
// wrongType does, with an example of the right shape.
func (d *decoder) wrongShape(n *yaml.Node, p *path, want, example string) {
	d.refusePath(p)
	d.add(field.TypeInvalid(p.build(), badValue(n), "must be "+want+", not "+kindName(n)+" ("+example+")"))
}

// addPin places e at node n.
func (d *decoder) addPin(n *yaml.Node, e *field.Error) {
	if d.pinned == nil {
		d.pinned = make(map[*field.Error]Position)
	}
	d.pinned[e] = Position{Line: n.Line + d.lines, Column: n.Column}
}

// pipeline decodes a pipeline job: each step under jobs that names an instance type and
// runs on a compute target (its own compute, or the pipeline's settings.default_compute or
// compute) is a workload, given to add with its path (jobs.NAME); a step that names one
// but runs on no compute target is skipped, with why. jobs of another shape than a mapping
// of steps (or null), and a step that is not a mapping (nor null), are findings. The rest of the document is checked
// for duplicate keys and what kubectl would refuse.
func (d *decoder) pipeline(n *yaml.Node, p *path, add func(*field.Path, *yaml.Node, *resolve.Workload), skip func(line int, reason string)) {
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
	if !d.descend(n) {
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
		if !ok {
			continue
		}
		if key != "jobs" {
			d.checkTree(v, &fp)
			continue
		}
		d.keep(&fp, c[i])
		if v.Kind != yaml.MappingNode {
			if !isNull(v) { // null: no steps
				d.wrongShape(v, &fp, "a mapping of step names to jobs", "jobs: {train: {command: …, resources: {instance_type: …}}}")
			}
			d.checkTree(v, &fp)
			continue
		}
		if !d.descend(v) {
			return
		}
		steps := d.pairs(v, &fp)
		for j := 0; j+1 < len(steps); j += 2 {
			name, ok := d.keyOf(steps[j], &fp)
			sp := fp.child(name)
			s := d.visit(steps[j+1], &sp)
			if s == nil {
				d.ascend()
				return
			}
			if !ok {
				continue
			}
			names, compute := stepShape(s, &budget)
			switch {
			case s.Kind != yaml.MappingNode:
				if !isNull(s) {
					d.keep(&sp, steps[j])
					d.wrongShape(s, &sp, "a mapping", "a step is a job: command, compute, resources, …")
				}
				d.checkTree(s, &sp)
			case !names:
				d.checkTree(s, &sp) // its instance type is its compute's business
			case !compute && !defaultCompute:
				skip(s.Line, "pipeline step "+clip.Quote(name)+" is serverless (no compute, and no settings.default_compute): its instance_type is an Azure VM size")
				d.checkTree(s, &sp)
			default:
				d.keep(&sp, steps[j])
				add(sp.build(), s, d.job(s, &sp))
			}
		}
		d.ascend()
	}
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

// endpoint decodes an online endpoint written with its deployments inline, an older form:
// each item of deployments is a deployment, given to add with its path (deployments[i]).
// deployments of another shape than a list (or null) is a finding.
func (d *decoder) endpoint(n *yaml.Node, p *path, add func(*field.Path, *yaml.Node, *resolve.Workload)) {
	if !d.descend(n) {
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
		if !ok {
			continue
		}
		if key != "deployments" {
			d.checkTree(v, &fp)
			continue
		}
		d.keep(&fp, c[i])
		if v.Kind != yaml.SequenceNode {
			if !isNull(v) { // null: no deployments
				d.wrongShape(v, &fp, "a list of deployments", "deployments: [{name: blue, instance_type: …}]")
			}
			d.checkTree(v, &fp)
			continue
		}
		if !d.descend(v) {
			return
		}
		for j, written := range v.Content {
			ip := fp.index(j)
			e := d.visit(written, &ip)
			if e == nil {
				d.ascend()
				return
			}
			// The item is where it is written: an alias's line, not its anchor's.
			d.keep(&ip, written)
			add(ip.build(), written, d.deployment(e, &ip))
		}
		d.ascend()
	}
}
