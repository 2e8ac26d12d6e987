package azureml

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/workload"
)

// mlflowModel is the model.type of an MLflow model deployment.
const mlflowModel = "mlflow_model"

// Item is one workload of a document, with its place in it.
type Item struct {
	// Path is where the workload is in its document: nil for the document itself,
	// jobs.train for a step of a pipeline job, deployments[0] for a deployment written
	// inside an endpoint.
	Path *field.Path
	// Kind is the kind of the document it comes from, or, for a deployment written
	// inside an endpoint, KindDeployment.
	Kind Kind
	// Workload is the workload as read.
	Workload *workload.Workload
	// Note, when set, says that the workload is written in an older form, and how it is
	// written today: its findings carry it.
	Note string
	// Errors are the problems reading found in it, at paths relative to the document. A
	// workload with any is not placed with confidence.
	Errors field.ErrorList
}

// ComputeItem is one compute target of a document, with its place in it.
type ComputeItem struct {
	Path    *field.Path
	Compute Compute
	Errors  field.ErrorList
}

// Skipped is a part of a document that is not checked, and why: a pipeline step that is
// serverless, Spark, local, a pipeline component or a data transfer.
type Skipped struct {
	Path   *field.Path
	Reason string
}

// Result is what reading an Azure ML document found.
type Result struct {
	Workloads []Item
	Computes  []ComputeItem
	Skipped   []Skipped
	// Errors are the problems of the document outside its workloads and computes.
	Errors field.ErrorList
	// At places the errors whose path does not say where they are.
	At map[*field.Error]source.Position
	// Aliases maps a path validation knows a value by to the path it is written at, in
	// this document: resources.limits[nvidia.com/gpu] to resources.limits[gpu].
	Aliases map[string]string
}

// Read reads the Azure ML document d, recognised as kind: the workloads it holds, with
// what resolution needs of each (its name, instance type, compute, a deployment's
// resources and whether its model is MLflow), or its compute targets. Of the rest, keys
// set twice are findings, and keys azure-ai-ml refuses as unknown (UnknownFields).
func Read(d *source.Document, kind Kind) *Result {
	r := &reader{doc: d}
	r.Src = d
	res := &Result{}
	add := func(p *field.Path, w *workload.Workload, from int) {
		item := Item{Path: p, Kind: kind, Workload: w, Errors: r.Errs[from:len(r.Errs):len(r.Errs)]}
		switch {
		case kind == KindEndpoint:
			item.Kind, item.Note = KindDeployment, "an older form: an online endpoint file with its deployments inline; "+
				"today each deployment has a file of its own, with $schema kubernetesOnlineDeployment.schema.json"
		case w.LegacyCompute:
			item.Note = "an older form: compute with target and instance_type; today a job names compute: azureml:TARGET and resources.instance_type"
		}
		res.Workloads = append(res.Workloads, item)
	}
	switch kind {
	case KindDeployment:
		add(nil, r.deployment(d.Value, nil), 0)
	case KindJob, KindSweepJob, KindAutoMLJob, KindBatchDeployment:
		add(nil, r.job(d.Value, nil), 0)
	case KindPipelineJob:
		r.pipeline(d.Value, add, func(p *field.Path, reason string) {
			res.Skipped = append(res.Skipped, Skipped{Path: p, Reason: reason})
		})
	case KindEndpoint:
		r.endpoint(d.Value, add)
	case KindCompute:
		c := compute(&r.Decoder, d.Value, nil)
		res.Computes = append(res.Computes, ComputeItem{Compute: c, Errors: r.Errs})
	case KindComputeList:
		l, _ := d.Value.([]any)
		for i, v := range l {
			from := len(r.Errs)
			p := (*field.Path)(nil).Index(i)
			c := compute(&r.Decoder, v, p)
			res.Computes = append(res.Computes, ComputeItem{Path: p, Compute: c, Errors: r.Errs[from:len(r.Errs):len(r.Errs)]})
		}
	}
	// The errors not of a workload or a compute are the document's.
	for _, e := range r.Errs {
		if !res.owns(e) {
			res.Errors = append(res.Errors, e)
		}
	}
	dups, at := decode.Duplicates(d)
	res.At = at
	for _, e := range dups {
		res.attribute(e)
	}
	var unknown field.ErrorList
	for _, e := range UnknownFields(kind, d.Value) {
		if !r.reported(kind, e.Field) {
			unknown = append(unknown, e)
		}
	}
	res.attributeAll(unknown)
	res.Aliases = r.aliases
	return res
}

// reported reports a key at the path f that reading has a finding of already (a job's
// resources.requests, a name in a deployment's requests or limits, which azure-ai-ml
// reads after renaming nvidia.com/gpu): the unknown-field check leaves it to that one.
func (r *reader) reported(kind Kind, f string) bool {
	if kind == KindDeployment && (within(f, field.NewPath("resources", "requests")) || within(f, field.NewPath("resources", "limits"))) {
		return true
	}
	for _, e := range r.Errs {
		if e.Field == f {
			return true
		}
	}
	return false
}

// owns reports an error of one of the result's workloads or computes.
func (res *Result) owns(e *field.Error) bool {
	for _, w := range res.Workloads {
		if slices.Contains(w.Errors, e) {
			return true
		}
	}
	for _, c := range res.Computes {
		if slices.Contains(c.Errors, e) {
			return true
		}
	}
	return false
}

// attribute adds a finding of the whole document to the workload or compute it is in.
func (res *Result) attribute(e *field.Error) {
	for i := range res.Workloads {
		if within(e.Field, res.Workloads[i].Path) {
			res.Workloads[i].Errors = append(slices.Clip(res.Workloads[i].Errors), e)
			return
		}
	}
	for i := range res.Computes {
		if within(e.Field, res.Computes[i].Path) {
			res.Computes[i].Errors = append(slices.Clip(res.Computes[i].Errors), e)
			return
		}
	}
	res.Errors = append(res.Errors, e)
}

// attributeAll adds findings of the whole document to the workloads or computes they are
// in, as attribute does, each list grown once.
func (res *Result) attributeAll(errs field.ErrorList) {
	if len(errs) == 0 {
		return
	}
	by := map[int]field.ErrorList{} // workload i, or compute -1-i, or the document's, len(res.Workloads)
	var order []int
	for _, e := range errs {
		at := len(res.Workloads)
		if i := slices.IndexFunc(res.Workloads, func(w Item) bool { return within(e.Field, w.Path) }); i >= 0 {
			at = i
		} else if i := slices.IndexFunc(res.Computes, func(c ComputeItem) bool { return within(e.Field, c.Path) }); i >= 0 {
			at = -1 - i
		}
		if _, ok := by[at]; !ok {
			order = append(order, at)
		}
		by[at] = append(by[at], e)
	}
	for _, at := range order {
		switch {
		case at == len(res.Workloads):
			res.Errors = append(res.Errors, by[at]...)
		case at >= 0:
			res.Workloads[at].Errors = append(slices.Clip(res.Workloads[at].Errors), by[at]...)
		default:
			res.Computes[-1-at].Errors = append(slices.Clip(res.Computes[-1-at].Errors), by[at]...)
		}
	}
}

// within reports whether the field path f is at or below p (any path for nil).
func within(f string, p *field.Path) bool {
	if p == nil {
		return true
	}
	s := p.String()
	return len(f) >= len(s) && f[:len(s)] == s && (len(f) == len(s) || f[len(s)] == '.' || f[len(s)] == '[')
}

// deployment reads the online deployment v at p: what resolution needs of it.
func (r *reader) deployment(v any, p *field.Path) *workload.Workload {
	w := &workload.Workload{Kind: workload.OnlineDeployment}
	m, ok := r.Mapping(v, p)
	if !ok {
		return w
	}
	for _, k := range strict.SortedKeys(m) {
		switch v := m[k]; k {
		case "name":
			w.Name = r.Str(v, p.Child(k), false)
		case "instance_type":
			w.InstanceType = r.Str(v, p.Child(k), false)
		case "model":
			r.model(v, p.Child(k), w)
		case "resources":
			if v != nil {
				w.Resources = r.resources(v, p.Child(k))
				if w.Resources == nil {
					w.Resources = &instancetype.ResourceRequirements{}
				}
			}
		}
	}
	return w
}

// model reads model.type of a deployment: a model named by reference (azureml:my-model:1)
// is not an MLflow model written inline.
func (r *reader) model(v any, p *field.Path, w *workload.Workload) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if t, ok := m["type"]; ok && isScalar(t) {
		w.MLflow = r.Str(t, p.Child("type"), false) == mlflowModel
	}
}

// namedType is an instance type a job names in one place.
type namedType struct {
	set     bool // the key is written, with a value other than null
	refused bool // the value is not a string: reading reported it
	name    string
	path    *field.Path
}

// instanceTypeField reads the value v of an instance_type key at p.
func (r *reader) instanceTypeField(v any, p *field.Path) namedType {
	if v == nil {
		return namedType{}
	}
	before := len(r.Errs)
	name := r.Str(v, p, false)
	return namedType{set: true, refused: len(r.Errs) > before, name: name, path: p}
}

// job reads the command job, sweep job, batch deployment or pipeline step v at p: its
// name and resources.instance_type (or, in the older form, compute.target and
// compute.instance_type).
//
// resources.instance_type is where Azure ML's job schema puts the instance type today;
// the older form's compute.instance_type is read only when there is none (no key, or
// null). A job that names one in both, and different ones, has a finding at
// compute.instance_type, which is ignored.
func (r *reader) job(v any, p *field.Path) *workload.Workload {
	w := &workload.Workload{Kind: workload.ComputeJob}
	m, ok := r.Mapping(v, p)
	if !ok {
		return w
	}
	var current, legacy namedType
	var legacyPath *field.Path
	if n, ok := m["display_name"]; ok {
		w.Name = r.Str(n, p.Child("display_name"), false)
	}
	if n, ok := m["name"]; ok {
		if name := r.Str(n, p.Child("name"), false); name != "" || w.Name == "" {
			w.Name = name
		}
	}
	if res, ok := m["resources"]; ok {
		current = r.jobResources(res, p.Child("resources"))
	}
	if c, ok := m["compute"]; ok {
		cp := p.Child("compute")
		switch c := c.(type) {
		case map[string]any:
			legacyPath = cp
			legacy = r.legacyCompute(c, cp, w)
		case []any:
			r.wrongShape(c, cp, "a compute target's name", "compute: azureml:NAME")
		default:
			if s := r.Str(c, cp, false); s != "" {
				w.Compute, w.ComputePath = s, cp
			}
		}
	}
	switch {
	case current.set:
		w.InstanceType = current.name
		if legacy.set && !current.refused && !legacy.refused && legacy.name != current.name {
			r.Errs = append(r.Errs, field.Invalid(legacy.path, clip.String(legacy.name),
				"ignored: resources.instance_type names "+clip.Quote(current.name)+", the instance type in effect; "+
					"name it there only (compute.instance_type is the older form)").WithOrigin(rules.LegacyForm))
		}
	case legacy.set:
		w.InstanceType = legacy.name
		w.LegacyCompute = true
	}
	if legacyPath != nil {
		r.legacyFinding(legacyPath, w)
	}
	return w
}

// legacyFinding reports the older form of a job's compute, a mapping of target and
// instance_type, at p: the Azure ML CLI v2 refuses it (its compute is a string), and the
// finding gives today's form.
func (r *reader) legacyFinding(p *field.Path, w *workload.Workload) {
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
	r.Errs = append(r.Errs, e)
}

// jobResources reads a job's resources: instance_type; the other settings of a job's
// resources (instance_count, shm_size, …) are not read. A job has no requests or limits:
// those are unknown fields.
func (r *reader) jobResources(v any, p *field.Path) namedType {
	m, ok := r.Mapping(v, p)
	if !ok {
		return namedType{}
	}
	var it namedType
	for _, k := range strict.SortedKeys(m) {
		switch k {
		case "instance_type":
			it = r.instanceTypeField(m[k], p.Child(k))
		case "requests", "limits":
			r.Errs = append(r.Errs, field.Forbidden(p.Child(k), "unknown field \""+k+"\": a job gets its requests and limits from its instance type; set them in an InstanceType, or use an online deployment's resources").WithOrigin(rules.UnknownField))
		}
	}
	return it
}

// legacyCompute reads the older form of a job's compute, a mapping of target and
// instance_type: the target is w's compute.
func (r *reader) legacyCompute(m map[string]any, p *field.Path, w *workload.Workload) namedType {
	var it namedType
	if v, ok := m["instance_type"]; ok {
		it = r.instanceTypeField(v, p.Child("instance_type"))
	}
	if v, ok := m["target"]; ok {
		if c := r.Str(v, p.Child("target"), false); c != "" {
			w.Compute, w.ComputePath = c, p.Child("target")
		}
	}
	return it
}

// wrongShape reports a section of the wrong kind at p, whose value is refused, with an
// example of the right shape.
func (r *reader) wrongShape(v any, p *field.Path, want, example string) {
	r.Errs = append(r.Errs, field.TypeInvalid(p, r.Shown(v, p), "must be "+want+", not "+kindName(v)+" ("+example+")").WithOrigin(rules.WrongType))
}

// pipeline reads the pipeline job v: each step under jobs that runs on a compute target
// (its own compute, or the pipeline's settings.default_compute or compute) is a workload,
// given to add with its path (jobs.NAME), whether it names an instance type or not (one
// that names none gets the compute's default instance type, as a job does); a step on the
// serverless compute (no compute at all, or azureml:serverless) or run locally is
// skipped, with why, as is every Spark step, whatever its compute, a step that is a
// pipeline component (its own steps run), and a data transfer or import step. jobs of
// another shape than a mapping of steps (or null), and a step that is not a mapping (nor
// null), are findings. Steps are taken in the order they are written.
func (r *reader) pipeline(v any, add func(*field.Path, *workload.Workload, int), skip func(*field.Path, string)) {
	m, ok := r.Mapping(v, nil)
	if !ok {
		return
	}
	var def pipelineCompute
	if c, ok := m["compute"]; ok && c != nil && isScalar(c) {
		def = pipelineCompute{value: scalarText(c), path: field.NewPath("compute")}
	}
	if s, ok := m["settings"].(map[string]any); ok {
		if c, ok := s["default_compute"]; ok && c != nil && isScalar(c) {
			def = pipelineCompute{value: scalarText(c), path: field.NewPath("settings", "default_compute")}
		}
	}
	jobs, isMap := m["jobs"].(map[string]any)
	if !isMap {
		if v := m["jobs"]; v != nil {
			r.wrongShape(v, field.NewPath("jobs"), "a mapping of step names to jobs", "jobs: {train: {command: …, resources: {instance_type: …}}}")
		}
		return
	}
	names := strict.SortedKeys(jobs)
	if len(names) > 1 {
		at := make(map[string]source.Position, len(names))
		for _, n := range names {
			at[n] = r.doc.PositionOf(field.NewPath("jobs", n).String())
		}
		slices.SortStableFunc(names, func(a, b string) int {
			return cmp.Or(cmp.Compare(at[a].Line, at[b].Line), cmp.Compare(at[a].Column, at[b].Column))
		})
	}
	for _, name := range names {
		s := jobs[name]
		p := field.NewPath("jobs", name)
		shape := stepShapeOf(s)
		step := "pipeline step " + clip.Quote(name)
		own := ParseCompute(shape.compute)
		vmSize := "" // why a serverless step's instance type is not one of ours
		if shape.names {
			vmSize = ": its instance_type is an Azure VM size"
		}
		_, isMapping := s.(map[string]any)
		switch {
		case !isMapping:
			if s != nil {
				r.wrongShape(s, p, "a mapping", "a step is a job: command, compute, resources, …")
			}
		case shape.typ == "spark":
			skip(p, step+" is a Spark step: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes")
		case shape.typ == "pipeline":
			skip(p, step+" is a pipeline component (type: pipeline): its own steps run, not it")
		case shape.typ == "data_transfer":
			skip(p, step+" is a data transfer step (type: data_transfer): it moves data, with no instance type")
		case shape.typ == "import":
			skip(p, step+" is a data import step (type: import): it moves data, with no instance type")
		case own.Local:
			skip(p, step+" runs locally (compute: local)")
		case own.Serverless:
			skip(p, step+" is serverless (compute: "+clip.String(shape.compute)+")"+vmSize)
		case !shape.hasCompute && def.value == "":
			skip(p, step+" is serverless (no compute, and no settings.default_compute)"+vmSize)
		case !shape.hasCompute && ParseCompute(def.value).Serverless:
			skip(p, step+" is serverless (settings.default_compute: "+clip.String(def.value)+")"+vmSize)
		default:
			from := len(r.Errs)
			w := r.job(s, p)
			if !shape.hasCompute && w.Compute == "" {
				w.Compute, w.ComputePath = def.value, def.path
			}
			add(p, w, from)
		}
	}
}

// pipelineCompute is a pipeline's default compute: its value as written, and where.
type pipelineCompute struct {
	value string
	path  *field.Path
}

// stepShape is what recognition reads of a pipeline step before it is read.
type stepShape struct {
	names      bool   // it names an instance type
	hasCompute bool   // it names a compute of its own
	compute    string // its compute, when a scalar
	typ        string // its type: command (or ""), sweep, spark, pipeline, …
}

// stepShapeOf tells whether a pipeline step names an instance type (in resources, or in
// the older compute mapping), whether it names its own compute, and its type. A step
// whose resources are not a mapping (nor null) counts as naming one, so that its
// resources are read, and their shape reported.
func stepShapeOf(v any) stepShape {
	var sh stepShape
	m, ok := v.(map[string]any)
	if !ok {
		return sh
	}
	if t, ok := m["type"]; ok && isScalar(t) {
		sh.typ = scalarText(t)
	}
	switch res := m["resources"].(type) {
	case map[string]any:
		_, sh.names = res["instance_type"]
	case nil:
	default:
		sh.names = true
	}
	if c, ok := m["compute"]; ok && c != nil {
		sh.hasCompute = true
		switch c := c.(type) {
		case map[string]any:
			if _, ok := c["instance_type"]; ok {
				sh.names = true
			}
		case []any:
		default:
			sh.compute = scalarText(c)
		}
	}
	return sh
}

// endpoint reads the online endpoint v, written with its deployments inline, an older
// form: each item of deployments is a deployment, given to add with its path
// (deployments[i]). deployments of another shape than a list (or null) is a finding.
func (r *reader) endpoint(v any, add func(*field.Path, *workload.Workload, int)) {
	m, ok := r.Mapping(v, nil)
	if !ok {
		return
	}
	l, isList := m["deployments"].([]any)
	if !isList {
		if v := m["deployments"]; v != nil {
			r.wrongShape(v, field.NewPath("deployments"), "a list of deployments", "deployments: [{name: blue, instance_type: …}]")
		}
		return
	}
	for i, e := range l {
		from := len(r.Errs)
		p := field.NewPath("deployments").Index(i)
		add(p, r.deployment(e, p), from)
	}
}
