package validate

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/workload"
)

// Workload validates a deployment or a job against the catalog c of instance types (nil
// for the built-in default alone) and returns every finding, sorted by field. fldPath is
// the root of the workload in its document (nil for a whole document). It is [Resolve]
// without the placement.
//
// A valid workload yields nil without allocating.
func Workload(c *resolve.Catalog, w *workload.Workload, fldPath *field.Path, opts resolve.Options) field.ErrorList {
	_, errs := Resolve(c, w, fldPath, opts)
	return errs
}

// Resolve resolves the workload w in the catalog c as resolve.Resolve does, and validates
// it: it returns the placement and every finding about the workload, sorted by field, so
// that a caller who needs both resolves once. resolve.Resolve's errors are those of
// resolution alone; these are all of [Workload]'s. fldPath is the root of the workload in
// its document (nil for a whole document).
//
// For a deployment it checks its own resources section, when it has one (R8); for any
// workload, that the instance type it names can be the name of one; then that type, its
// node selector and the section's resources against it, as resolve.Resolve does (R6, R7,
// R9); then, for an MLflow model deployment, the effective requests against the MLflow
// minimums (R10). A job has no resources section: only its instance type must exist.
// opts.NodeSelector is the extension's node selector; with opts.NamesUnchecked a name
// the catalog lacks is not reported; opts.StrictSubset does not apply to workloads. The
// package documentation lists the rules.
//
// A valid workload yields nil errors without allocating.
func Resolve(c *resolve.Catalog, w *workload.Workload, fldPath *field.Path, opts resolve.Options) (resolve.Placement, field.ErrorList) {
	if w == nil {
		return resolve.Placement{}, field.ErrorList{field.Required(fldPath, "a deployment or job is required").WithOrigin(rules.R6)}
	}
	var errs field.ErrorList
	if w.Resources != nil && w.Kind != workload.ComputeJob {
		errs = validateResources(w.Resources, at{fldPath, pathLimits}, at{fldPath, pathRequests}, ownerDeployment, errs)
	}
	// A placeholder (<name>, ${VAR}, ${{parent.inputs.x}}) is resolve's to report, once:
	// it is not a malformed name.
	badName := w.InstanceType != "" && !validObjectName(w.InstanceType) && rules.PlaceholderOf(w.InstanceType) == rules.NoPlaceholder
	var nameErr *field.Error
	if badName {
		nameErr = field.Invalid(w.InstanceTypePath(fldPath), clip.String(w.InstanceType), instanceTypeNameDetail(w.InstanceType, !opts.NamesUnchecked)).WithOrigin(rules.R6)
		errs = append(errs, nameErr)
	}
	p, rerrs := resolve.Resolve(c, w, fldPath, opts)
	for _, e := range rerrs {
		// A name that cannot be an instance type's has its finding already, which takes
		// the catalog's nearest names from the one resolve gives; a name the catalog lacks
		// is no finding when the catalog is known to be incomplete.
		if e.Type == field.ErrorTypeNotFound && (badName || opts.NamesUnchecked) {
			if badName && !opts.NamesUnchecked {
				nameErr.Detail += "; " + e.Detail
			}
			continue
		}
		errs = append(errs, e)
	}
	if w.MLflow && w.Kind != workload.ComputeJob {
		errs = validateMLflow(w, &p, fldPath, errs)
	}
	if len(errs) > 1 {
		// Stable, so that findings at one field keep the order the rules gave them.
		slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
	}
	return p, errs
}

// DeploymentResources validates the resources section r of a Kubernetes online
// deployment on its own (R8: requests of cpu and memory set, quantities above zero, memory
// at least 1M; limits of cpu and memory with an extended resource; an extended resource a
// whole number, in limits only): the checks of [Resolve] that need neither the instance
// type nor the catalog, for a section whose deployment is not known (an azure-ai-ml
// ResourceRequirementsSettings that no deployment call takes). fldPath is the section's
// parent: findings are at fldPath.resources.requests[cpu] and so on, as Resolve's.
//
// A valid section yields nil without allocating.
func DeploymentResources(r *instancetype.ResourceRequirements, fldPath *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	return validateResources(r, at{fldPath, pathLimits}, at{fldPath, pathRequests}, ownerDeployment, nil)
}

// instanceTypeNameDetail explains why name, written in a workload's instance_type, cannot
// name an InstanceType. With catalog (the catalog is the cluster's), it suggests nothing:
// the caller adds the catalog's nearest names, so that what it suggests is always a name
// the catalog has; without, it suggests the valid spelling of name, when one is obvious.
func instanceTypeNameDetail(name string, catalog bool) string {
	if rules.IsVMSize(name) {
		detail := clip.Quote(name) + " is an Azure VM size, which managed online deployments and serverless jobs use; " +
			"on Kubernetes, instance_type names an InstanceType of the cluster (kubectl get instancetypes)"
		if catalog {
			return detail
		}
		return detail + ", such as \"defaultinstancetype\""
	}
	if catalog {
		return "must name an InstanceType: " + objectNameRule(name)
	}
	return "must name an InstanceType: " + objectNameDetail(name)
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
// Requests that are missing or have a problem of their own are reported by other rules
// and not here.
func validateMLflow(w *workload.Workload, p *resolve.Placement, fldPath *field.Path, errs field.ErrorList) field.ErrorList {
	if !p.Found && w.Resources == nil {
		return errs // no requests to judge: the instance type's finding says why
	}
	for _, m := range mlflowMinimums {
		a := p.Request(m.name)
		q, err := a.Quantity()
		if err != nil || !rules.Usable(m.name, a) || q.Cmp(m.min) >= 0 {
			continue // a request with a problem of its own is not judged again
		}
		need := "an MLflow model deployment needs a " + string(m.name) + " request of at least " + m.text
		if w.Resources != nil {
			errs = append(errs, field.Invalid(w.ResourcesPath(fldPath).Child("requests").Key(string(m.name)),
				clip.String(a.String()), need).WithOrigin(rules.R10))
			continue
		}
		which := "instance type " + clip.Quote(p.InstanceType)
		if w.InstanceType == "" {
			which += " (the default, as instance_type is not set)"
		}
		errs = append(errs, field.Invalid(w.InstanceTypePath(fldPath), clip.String(p.InstanceType),
			need+", but "+which+" requests "+clip.String(a.String())+
				"; choose an instance type that requests more, or set resources.requests."+string(m.name)).WithOrigin(rules.R10))
	}
	return errs
}
