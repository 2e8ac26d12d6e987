package validate

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
)

// The bounds of this project's CRD (client/manifests/crd) on the maps of an instance
// type, which the API server checks (maxProperties) and [InstanceType] checks too: the
// CEL rules of the CRD need them to stay within its cost budget.
const (
	// MaxNodeSelectorEntries is the most entries spec.nodeSelector may have.
	MaxNodeSelectorEntries = 64
	// MaxResources is the most entries spec.resources.requests may have, and the most
	// spec.resources.limits may have.
	MaxResources = 16
)

// InstanceType validates one instance type against rules R1–R4 and R7, and returns every
// finding, in a fixed order. fldPath is where the object sits in its document: nil for an
// InstanceType document, items[i] for an item of an InstanceTypeList. Paths of findings
// are below it: metadata.name, spec.nodeSelector[pool],
// spec.resources.limits[nvidia.com/gpu]. The package documentation lists the rules.
//
// Names must also be unique across all the instance types given together; [InstanceTypes]
// checks that too.
//
// A valid instance type yields nil without allocating.
func InstanceType(it *instancetype.InstanceType, fldPath *field.Path, opts resolve.Options) field.ErrorList {
	if it == nil {
		return field.ErrorList{field.Required(fldPath, "an instance type is required").WithOrigin(rules.R1)}
	}
	var errs field.ErrorList
	errs = validateObjectMeta(&it.ObjectMeta, fldPath, errs)
	sel := at{fldPath, pathSpecNodeSelector}
	if n := len(it.Spec.NodeSelector); n > MaxNodeSelectorEntries {
		e := field.TooMany(sel.path(), n, MaxNodeSelectorEntries).WithOrigin(rules.R4)
		e.Detail = "must have at most " + strconv.Itoa(MaxNodeSelectorEntries) + " entries: the API server's schema for instance types allows no more"
		errs = append(errs, e)
	}
	errs = validateLabels(it.Spec.NodeSelector, sel, rules.R4, errs)
	errs = validateExtensionSelector(it.Spec.NodeSelector, opts.NodeSelector, opts.StrictSubset, sel, errs)
	errs = validateResources(&it.Spec.Resources, at{fldPath, pathSpecLimits}, at{fldPath, pathSpecRequests}, ownerInstanceType, errs)
	return errs
}
