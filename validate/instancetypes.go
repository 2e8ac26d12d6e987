package validate

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
)

// Source is one instance type among several validated together, with where it came from.
type Source struct {
	// InstanceType is the object to validate.
	InstanceType *instancetype.InstanceType
	// Path is where the object sits in its document, as for [InstanceType]: nil for an
	// InstanceType document, items[i] for a list item.
	Path *field.Path
	// Origin names the place of the object for messages about other objects, such as
	// "a.yaml:12". When empty, Path is used.
	Origin string
}

// InstanceTypes validates instance types given together, as a cluster would hold them:
// each as [InstanceType] does, and their names unique across all of them, as [UniqueNames]
// checks (R1). It returns one list of findings per source, aligned with srcs (nil for a
// valid one).
func InstanceTypes(srcs []Source, opts resolve.Options) []field.ErrorList {
	out := UniqueNames(srcs)
	for i, src := range srcs {
		out[i] = append(out[i], InstanceType(src.InstanceType, src.Path, opts)...)
	}
	return out
}

// UniqueNames checks that the names of instance types given together are unique (R1), and
// returns one list of findings per source, aligned with srcs (nil for a source without
// one).
//
// When several instance types share a name, the last one is the definition in effect, as
// kubectl apply leaves the cluster after applying them in order; each earlier one gets a
// field.Duplicate error at its metadata.name whose detail says where the one in effect is.
// A custom instance type named defaultinstancetype overrides the built-in one (R5) and is
// not a duplicate of it; two custom ones of that name are duplicates. Nil instance types
// and those without a name are not compared.
func UniqueNames(srcs []Source) []field.ErrorList {
	out := make([]field.ErrorList, len(srcs))
	last := make(map[string]int, len(srcs))
	for i, src := range srcs {
		if it := src.InstanceType; it != nil && it.Name != "" {
			last[it.Name] = i
		}
	}
	for i, src := range srcs {
		if it := src.InstanceType; it != nil && it.Name != "" {
			if j := last[it.Name]; j != i {
				e := field.Duplicate(src.Path.Child("metadata", "name"), clip.String(it.Name)).WithOrigin(rules.R1)
				e.Detail = "instance type names must be unique; this definition is not in effect: the one at " +
					where(srcs[j]) + " replaces it, as the last one applied wins: rename or remove one of them"
				out[i] = field.ErrorList{e}
			}
		}
	}
	return out
}

// where names the place of src for a message: its origin, else its path.
func where(src Source) string {
	switch {
	case src.Origin != "" && src.Path != nil:
		return clip.String(src.Origin) + " (" + src.Path.String() + ")"
	case src.Origin != "":
		return clip.String(src.Origin)
	case src.Path != nil:
		return src.Path.String()
	}
	return "an earlier instance type"
}

// InstanceTypeList validates the items of list, at fldPath.Child("items").Index(i), as
// [InstanceTypes] does (names unique within the list), and returns their findings in item
// order.
func InstanceTypeList(list *instancetype.InstanceTypeList, fldPath *field.Path, opts resolve.Options) field.ErrorList {
	if list == nil {
		return field.ErrorList{field.Required(fldPath, "an instance type list is required").WithOrigin(rules.R1)}
	}
	items := fldPath.Child("items")
	srcs := make([]Source, len(list.Items))
	for i := range list.Items {
		srcs[i] = Source{InstanceType: &list.Items[i], Path: items.Index(i)}
	}
	var errs field.ErrorList
	for _, e := range InstanceTypes(srcs, opts) {
		errs = append(errs, e...)
	}
	return errs
}
