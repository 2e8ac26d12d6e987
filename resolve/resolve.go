package resolve

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/selector"
)

// Resolve returns the placement of the workload w in the catalog c (nil for the built-in
// default alone), given extension, the extension's own nodeSelector (nil for none), by
// the rules in the package documentation.
//
// fldPath is the root of the workload's document (nil for a whole document); errors are
// reported below it, at instance_type (resources.instance_type for a job) and at
// resources.limits[NAME] and resources.requests[NAME]. On errors the placement is still
// filled in as far as it can be, as the package documentation details. A nil w is taken
// as the zero Workload.
//
// Resolve does not modify its arguments, and the placement shares their maps. It costs
// the same whatever the size of c, and allocates nothing on success but the merged
// selector map, when both selectors are non-empty and neither holds the other.
func Resolve(c *Catalog, w *Workload, extension map[string]string, fldPath *field.Path) (Placement, field.ErrorList) {
	if w == nil {
		w = &Workload{}
	}
	p := Placement{Kind: w.Kind, Name: w.Name, InstanceType: w.InstanceType}
	if p.InstanceType == "" {
		p.InstanceType = instancetype.DefaultName
	}
	var errs field.ErrorList
	it, ok := c.Get(p.InstanceType)
	if !ok {
		nf := c.notFound(p.InstanceType)
		e := field.NotFound(w.InstanceTypePath(fldPath), p.InstanceType)
		e.Detail = nf.Detail()
		errs = append(errs, e)
		p.NodeSelector = extension
	} else {
		p.BuiltIn = it == builtinDefault
		sel, err := selector.Merge(extension, it.Spec.NodeSelector)
		if err != nil {
			errs = append(errs, conflictErrors(err, p.InstanceType, w.InstanceTypePath(fldPath))...)
			sel = extension
		}
		p.NodeSelector = sel
	}

	if w.Resources == nil {
		if it != nil {
			p.Requests, p.Limits = it.Spec.Resources.Requests, it.Spec.Resources.Limits
		}
		return p, errs
	}
	own := w.Resources
	p.Requests, p.Limits = own.Requests, own.Limits
	ownLimits := len(own.Limits) > 0
	if !ownLimits && it != nil {
		p.Limits = it.Spec.Resources.Limits
	}
	var typeLimits instancetype.ResourceList
	if it != nil {
		typeLimits = it.Spec.Resources.Limits
	}
	n := len(errs)
	if ownLimits && it != nil {
		errs = checkLimits(errs, own.Limits, typeLimits, p.InstanceType, w, fldPath)
	}
	errs = checkRequests(errs, own.Requests, own.Limits, typeLimits, ownLimits, p.InstanceType, w, fldPath)
	if len(errs)-n > 1 {
		sortErrors(errs[n:])
	}
	return p, errs
}

// conflictErrors returns an error at path for each key on which the extension's selector
// and that of the instance type named name disagree.
func conflictErrors(err error, name string, path *field.Path) field.ErrorList {
	var ce *selector.ConflictError
	if !errors.As(err, &ce) { // not expected from selector.Merge; report it whole
		return field.ErrorList{field.Invalid(path, name, err.Error())}
	}
	errs := make(field.ErrorList, 0, len(ce.Conflicts))
	for _, c := range ce.Conflicts {
		errs = append(errs, field.Invalid(path, name,
			"instance type "+strconv.Quote(name)+" sets "+c.Key+"="+c.B+
				" but the extension's nodeSelector sets "+c.Key+"="+c.A+
				"; no node can match both"))
	}
	return errs
}

// standardResources are checked by direct lookup, in this order, before any other
// resource: the common lists hold them alone, and are then never iterated.
var standardResources = [...]instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory}

// isStandard reports whether name is one of standardResources.
func isStandard(name instancetype.ResourceName) bool {
	return name == instancetype.ResourceCPU || name == instancetype.ResourceMemory
}

// checkLimits appends an error for each limit of a deployment's own limits that exceeds
// the limit of its instance type, or asks for an extended resource the type lacks.
func checkLimits(errs field.ErrorList, own, typeLimits instancetype.ResourceList, typeName string,
	w *Workload, root *field.Path) field.ErrorList {
	found := 0
	for _, name := range standardResources {
		if l, ok := own[name]; ok {
			found++
			errs = checkLimit(errs, name, l, typeLimits[name], typeName, w, root)
		}
	}
	if len(own) > found {
		for name, l := range own {
			if !isStandard(name) {
				errs = checkLimit(errs, name, l, typeLimits[name], typeName, w, root)
			}
		}
	}
	return errs
}

// checkLimit appends an error if the own limit l of the resource name exceeds the
// instance type's limit tl, or asks for an extended resource the type lacks.
func checkLimit(errs field.ErrorList, name instancetype.ResourceName, l, tl instancetype.Amount,
	typeName string, w *Workload, root *field.Path) field.ErrorList {
	if !l.IsValid() {
		return errs
	}
	lq, _ := l.Quantity()
	switch {
	case tl.IsValid():
		if tq, _ := tl.Quantity(); lq.Cmp(tq) > 0 {
			return append(errs, field.Invalid(w.ResourcesPath(root).Child("limits").Key(string(name)), l.String(),
				"must be less than or equal to the "+string(name)+" limit of instance type "+
					strconv.Quote(typeName)+" ("+tl.String()+")"))
		}
	case !tl.IsSet() && isExtended(name) && lq.Sign() > 0:
		return append(errs, field.Invalid(w.ResourcesPath(root).Child("limits").Key(string(name)), l.String(),
			"instance type "+strconv.Quote(typeName)+" provides no "+string(name)))
	}
	return errs
}

// checkRequests appends an error for each request of a deployment's own requests that
// exceeds its cap: the section's own limit of the resource when it has one, else the
// instance type's (typeLimits, nil when the type is unknown).
func checkRequests(errs field.ErrorList, requests, own, typeLimits instancetype.ResourceList,
	ownLimits bool, typeName string, w *Workload, root *field.Path) field.ErrorList {
	found := 0
	for _, name := range standardResources {
		if r, ok := requests[name]; ok {
			found++
			errs = checkRequest(errs, name, r, own, typeLimits, ownLimits, typeName, w, root)
		}
	}
	if len(requests) > found {
		for name, r := range requests {
			if !isStandard(name) {
				errs = checkRequest(errs, name, r, own, typeLimits, ownLimits, typeName, w, root)
			}
		}
	}
	return errs
}

// checkRequest appends an error if the request r of the resource name exceeds its cap.
func checkRequest(errs field.ErrorList, name instancetype.ResourceName, r instancetype.Amount,
	own, typeLimits instancetype.ResourceList, ownLimits bool, typeName string,
	w *Workload, root *field.Path) field.ErrorList {
	if !r.IsValid() {
		return errs
	}
	limit, ofType := own[name], false
	if !ownLimits || !limit.IsSet() {
		limit, ofType = typeLimits[name], true
	}
	if !limit.IsValid() {
		return errs
	}
	rq, _ := r.Quantity()
	if lq, _ := limit.Quantity(); rq.Cmp(lq) <= 0 {
		return errs
	}
	detail := "must be less than or equal to the " + string(name) + " limit (" + limit.String() + ")"
	if ofType {
		detail = "must be less than or equal to the " + string(name) + " limit of instance type " +
			strconv.Quote(typeName) + " (" + limit.String() + ")"
	}
	return append(errs, field.Invalid(w.ResourcesPath(root).Child("requests").Key(string(name)), r.String(), detail))
}

// isExtended reports whether name is an extended resource: a qualified name such as
// nvidia.com/gpu. Unqualified names other than cpu and memory are invalid; package
// validate reports them.
func isExtended(name instancetype.ResourceName) bool {
	return strings.Contains(string(name), "/")
}

// sortErrors puts errs, which come from map iterations, in a stable order: by field,
// then type.
func sortErrors(errs field.ErrorList) {
	slices.SortFunc(errs, func(a, b *field.Error) int {
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		return strings.Compare(string(a.Type), string(b.Type))
	})
}
