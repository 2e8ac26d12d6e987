package resolve

import (
	"errors"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/workload"
)

// Options are the settings of the cluster that resolution and validation depend on: the
// Azure ML extension's own nodeSelector, and how package validate applies it. Resolve reads
// NodeSelector only; the validators of package validate take the same Options.
type Options struct {
	// NodeSelector is the extension's own nodeSelector, which applies to every instance
	// type (R7). An instance type that sets one of its keys to another value can place no
	// workload: that is always a finding. Nil means the extension has none.
	NodeSelector map[string]string
	// StrictSubset applies to validating instance types (validate.InstanceType and the
	// like): it applies the literal rule of the source document, that every key and value
	// of an instance type's nodeSelector must also be in the extension's NodeSelector.
	// Resolve and the validation of workloads ignore it.
	StrictSubset bool
	// NamesUnchecked applies to validating workloads (validate.Workload and
	// validate.Resolve): it says that the catalog a workload is checked against is not the
	// cluster's (none was given), so that an instance type name it lacks is not reported,
	// and only a name that cannot be an instance type's at all is. Resolve itself reports
	// a name the catalog lacks whatever it says, and reads it only to word the error of a
	// placeholder (which then lists no names of the catalog).
	NamesUnchecked bool
}

// Resolve returns the placement of the workload w in the catalog c (nil for the built-in
// default alone), by the rules in the package documentation. opts.NodeSelector is the
// extension's own nodeSelector; the rest of opts is validation's, and Resolve ignores it.
//
// An instance type the catalog lacks is an error of rule R6 (field.ErrorTypeNotFound) that
// suggests the nearest names of the catalog; one that is a placeholder not filled in
// (<name>, $VAR, ${VAR}, {{ … }}, an Azure ML expression ${{parent.inputs.x}}) is instead
// one error of rule "placeholder" (field.ErrorTypeInvalid) that says what it is and what
// to write there.
//
// fldPath is the root of the workload in its document (nil for a whole document); errors
// are reported below it, at instance_type (resources.instance_type for a job) and at
// resources.limits[NAME] and resources.requests[NAME]. On errors the placement is still
// filled in as far as it can be, as the package documentation details. A nil w is taken as
// the zero workload.Workload.
//
// Resolve does not modify its arguments. It costs the same whatever the size of c and
// allocates nothing on success. The user-supplied text its errors repeat is cut to 256
// bytes, so that no error grows with hostile input.
func Resolve(c *Catalog, w *workload.Workload, fldPath *field.Path, opts Options) (Placement, field.ErrorList) {
	if w == nil {
		w = &workload.Workload{}
	}
	p := Placement{Kind: w.Kind, Name: w.Name, InstanceType: w.InstanceType, ext: opts.NodeSelector}
	if p.InstanceType == "" {
		p.InstanceType = instancetype.DefaultName
	}
	var errs field.ErrorList
	it, ok := c.Get(p.InstanceType)
	switch {
	case !ok && rules.PlaceholderOf(p.InstanceType) != rules.NoPlaceholder:
		errs = append(errs, field.Invalid(w.InstanceTypePath(fldPath), clip.String(p.InstanceType),
			c.orBuiltin().placeholderDetail(rules.PlaceholderOf(p.InstanceType), opts.NamesUnchecked)).WithOrigin(rules.Placeholder))
	case !ok:
		e := field.NotFound(w.InstanceTypePath(fldPath), clip.String(p.InstanceType)).WithOrigin(rules.R6)
		e.Detail = c.orBuiltin().notFoundDetail(p.InstanceType)
		errs = append(errs, e)
	default:
		p.Found = true
		p.BuiltIn = it == builtinDefault
		if selector.Compatible(opts.NodeSelector, it.Spec.NodeSelector) {
			p.sel = it.Spec.NodeSelector
		} else {
			_, err := selector.Merge(opts.NodeSelector, it.Spec.NodeSelector)
			errs = append(errs, conflictErrors(err, p.InstanceType, w.InstanceTypePath(fldPath))...)
		}
	}

	var typ instancetype.ResourceRequirements
	if it != nil {
		typ = it.Spec.Resources
	}
	if w.Resources == nil || w.Kind == workload.ComputeJob {
		// Jobs take their resources from the instance type; so does a deployment without a
		// resources section.
		p.requests, p.own = typ.Requests, typ.Limits
		return p, errs
	}
	own := w.Resources
	p.requests, p.own, p.typ, p.completed = own.Requests, own.Limits, typ.Limits, true
	n := len(errs)
	if it != nil {
		errs = checkLimits(errs, own.Limits, typ.Limits, p.InstanceType, w, fldPath)
	}
	errs = checkRequests(errs, &p, w, fldPath)
	if len(errs)-n > 1 {
		sortErrors(errs[n:])
	}
	return p, errs
}

// Resolve is [Resolve] in the catalog c.
func (c *Catalog) Resolve(w *workload.Workload, fldPath *field.Path, opts Options) (Placement, field.ErrorList) {
	return Resolve(c, w, fldPath, opts)
}

// conflictErrors returns an error at path for each key on which the extension's selector
// and that of the instance type named name disagree.
func conflictErrors(err error, name string, path *field.Path) field.ErrorList {
	var ce *selector.ConflictError
	if !errors.As(err, &ce) { // not expected from selector.Merge; report it whole
		return field.ErrorList{field.Invalid(path, clip.String(name), clip.String(errString(err))).WithOrigin(rules.R7)}
	}
	errs := make(field.ErrorList, 0, len(ce.Conflicts))
	for _, c := range ce.Conflicts {
		errs = append(errs, field.Invalid(path, clip.String(name),
			"instance type "+clip.Quote(name)+" sets "+clip.String(c.Key)+"="+clip.String(c.B)+
				" but the extension's nodeSelector sets "+clip.String(c.Key)+"="+clip.String(c.A)+
				"; no node can match both").WithOrigin(rules.R7))
	}
	return errs
}

func errString(err error) string {
	if err == nil {
		return "the node selectors conflict"
	}
	return err.Error()
}

// standardResources are checked by direct lookup, in this order, before any other
// resource: the common lists hold them alone, and are then never iterated.
var standardResources = [...]instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory}

// isStandard reports whether name is one of standardResources.
func isStandard(name instancetype.ResourceName) bool {
	return name == instancetype.ResourceCPU || name == instancetype.ResourceMemory
}

// each calls fn for every entry of l, cpu and memory first, without iterating l when they
// are all it holds.
func each(l instancetype.ResourceList, fn func(instancetype.ResourceName, instancetype.Amount)) {
	found := 0
	for _, name := range standardResources {
		if a, ok := l[name]; ok {
			found++
			fn(name, a)
		}
	}
	if len(l) > found {
		for name, a := range l {
			if !isStandard(name) {
				fn(name, a)
			}
		}
	}
}

// checkLimits appends an error for each limit of a deployment's own limits that exceeds
// the limit of its instance type, or asks for an extended resource the type lacks. Only
// usable amounts take part (rules.Usable, and rules.UsableInInstanceType for the type's):
// one with a problem of its own is validate's to report, here or in the instance type.
func checkLimits(errs field.ErrorList, own, typeLimits instancetype.ResourceList, typeName string,
	w *workload.Workload, root *field.Path) field.ErrorList {
	each(own, func(name instancetype.ResourceName, l instancetype.Amount) {
		if !rules.Usable(name, l) {
			return
		}
		lq, _ := l.Quantity()
		tl := typeLimits[name]
		switch {
		case rules.UsableInInstanceType(name, tl):
			if tq, _ := tl.Quantity(); lq.Cmp(tq) > 0 {
				errs = append(errs, field.Invalid(w.ResourcesPath(root).Child("limits").Key(string(name)), clip.String(l.String()),
					"must be less than or equal to the "+clip.String(string(name))+" limit of instance type "+
						clip.Quote(typeName)+" ("+clip.String(tl.String())+")").WithOrigin(rules.R9))
			}
		case !tl.IsSet() && rules.Classify(name) == rules.Extended && lq.Sign() > 0:
			errs = append(errs, field.Invalid(w.ResourcesPath(root).Child("limits").Key(string(name)), clip.String(l.String()),
				"instance type "+clip.Quote(typeName)+" provides no "+clip.String(string(name))).WithOrigin(rules.R9))
		}
	})
	return errs
}

// checkRequests appends an error for each request of a deployment's own requests that
// exceeds its effective limit: the section's own limit of the resource when it sets one,
// else the instance type's. Only usable amounts take part.
func checkRequests(errs field.ErrorList, p *Placement, w *workload.Workload, root *field.Path) field.ErrorList {
	each(p.requests, func(name instancetype.ResourceName, r instancetype.Amount) {
		if !rules.Usable(name, r) {
			return
		}
		limit, ofType := p.own[name], false
		if !limit.IsSet() {
			limit, ofType = p.typ[name], true
		}
		if ofType && !rules.UsableInInstanceType(name, limit) || !ofType && !rules.Usable(name, limit) {
			return
		}
		rq, _ := r.Quantity()
		if lq, _ := limit.Quantity(); rq.Cmp(lq) <= 0 {
			return
		}
		detail := "must be less than or equal to the " + clip.String(string(name)) + " limit (" + clip.String(limit.String()) + ")"
		if ofType {
			detail = "must be less than or equal to the " + clip.String(string(name)) + " limit of instance type " +
				clip.Quote(p.InstanceType) + " (" + clip.String(limit.String()) + ")"
		}
		errs = append(errs, field.Invalid(w.ResourcesPath(root).Child("requests").Key(string(name)), clip.String(r.String()), detail).WithOrigin(rules.R9))
	})
	return errs
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
