package validate

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Workload validates a deployment or a job against the catalog c of instance types (nil
// for the built-in default alone) and returns every finding, sorted by field. fldPath is
// the root of the workload's document (nil for a whole document).
//
// For a deployment it checks its own resources section, when it has one (R8); then the
// instance type it names, its node selector and its resources against that type, as
// [resolve.Resolve] does (R6, R7, R9); then, for an MLflow model deployment, the effective
// requests against the MLflow minimums (R10). A job has no resources section: only its
// instance type must exist. opts.NodeSelector is the extension's node selector;
// opts.StrictSubset does not apply to workloads. The package documentation lists the rules.
//
// A valid workload yields nil without allocating, unless its instance type's node selector
// and the extension's must be merged into a new map (see resolve.Resolve).
func Workload(w *resolve.Workload, c *resolve.Catalog, fldPath *field.Path, opts Options) field.ErrorList {
	if w == nil {
		return field.ErrorList{field.Required(fldPath, "a deployment or job is required")}
	}
	var errs field.ErrorList
	if w.Kind == resolve.Job && w.Resources != nil {
		job := *w // jobs carry no resources section: resolve the instance type alone
		job.Resources = nil
		w = &job
	}
	if w.Resources != nil {
		errs = validateResources(w.Resources, at{fldPath, pathLimits}, at{fldPath, pathRequests}, ownerDeployment, errs)
		if len(errs) > 0 {
			// Resolve compares every valid amount. Give it only those that passed the rules
			// above, so that a limit of 0 does not also bring "request must be less than or
			// equal to the cpu limit (0)": one mistake, one finding.
			sound := *w
			sound.Resources = soundResources(w.Resources)
			w = &sound
		}
	}
	p, rerrs := resolve.Resolve(c, w, opts.NodeSelector, fldPath)
	for _, e := range rerrs {
		if s, ok := e.BadValue.(string); ok {
			e.BadValue = clip.String(s)
		}
		errs = append(errs, e)
	}
	if w.MLflow && w.Kind != resolve.Job {
		errs = validateMLflow(w, &p, fldPath, errs)
	}
	if len(errs) > 1 {
		// Stable, so that findings at one field keep the order the rules gave them.
		slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
	}
	return errs
}

// The MLflow minimums (R10), as written in findings.
var mlflowMinimums = [...]struct {
	name instancetype.ResourceName
	min  quantity.Quantity
	text string
}{
	{instancetype.ResourceCPU, minMLflowCPU, "2"},
	{instancetype.ResourceMemory, minMLflowMemory, "4G (4 GB)"},
}

// validateMLflow appends the findings of R10 to errs: an MLflow model deployment must
// request at least 2 cpu and 4G of memory — its own requests when it has a resources
// section (reported there), else its instance type's (reported at instance_type).
// Requests that are missing or invalid are reported by other rules and not here.
func validateMLflow(w *resolve.Workload, p *resolve.Placement, fldPath *field.Path, errs field.ErrorList) field.ErrorList {
	for _, m := range mlflowMinimums {
		a := p.Requests[m.name]
		q, err := a.Quantity()
		if err != nil || q.Cmp(m.min) >= 0 {
			continue
		}
		need := "an MLflow model deployment needs a " + string(m.name) + " request of at least " + m.text
		if w.Resources != nil {
			errs = append(errs, field.Invalid(w.ResourcesPath(fldPath).Child("requests").Key(string(m.name)),
				clip.String(a.String()), need))
			continue
		}
		which := "instance type " + clip.Quote(p.InstanceType)
		if w.InstanceType == "" {
			which += " (the default, as instance_type is not set)"
		}
		errs = append(errs, field.Invalid(w.InstanceTypePath(fldPath), clip.String(p.InstanceType),
			need+", but "+which+" requests "+clip.String(a.String())+
				"; choose an instance type that requests more, or set resources.requests."+string(m.name)))
	}
	return errs
}

// soundResources returns a copy of r without the entries that have findings of their own.
func soundResources(r *instancetype.ResourceRequirements) *instancetype.ResourceRequirements {
	return &instancetype.ResourceRequirements{
		Limits:   soundList(r.Limits, r.Requests, false),
		Requests: soundList(r.Requests, r.Limits, true),
	}
}

func soundList(list, other instancetype.ResourceList, isRequests bool) instancetype.ResourceList {
	if list == nil {
		return nil
	}
	out := make(instancetype.ResourceList, len(list))
	for name, a := range list {
		if validateEntry(name, a, other, isRequests, at{}, ownerDeployment, nil) == nil {
			out[name] = a
		}
	}
	return out
}
