package validate

import (
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/selector"
)

// NodeSelector validates a node selector given on its own, such as the extension's
// (--node-selector): every key must be a label key and every value a label value. Each bad
// key or value is a field.Invalid error at fldPath.Key(key), sorted by key; values longer
// than MaxValueLen are cut. A valid selector yields nil without allocating.
func NodeSelector(sel map[string]string, fldPath *field.Path) field.ErrorList {
	return validateLabels(sel, at{base: fldPath}, rules.R4, nil)
}

// validateLabels appends the findings of selector.ValidateLabels about m, found at l, to
// errs, with the rule id rule. It builds l only when some key or value is bad.
func validateLabels(m map[string]string, l at, rule string, errs field.ErrorList) field.ErrorList {
	if validLabels(m) {
		return errs
	}
	found := selector.ValidateLabels(m, l.path())
	errs = slices.Grow(errs, len(found))
	for _, e := range found {
		if s, ok := e.BadValue.(string); ok && len(s) > clip.MaxLen { // (boxing it again would allocate)
			e.BadValue = clip.String(s)
		}
		errs = append(errs, e.WithOrigin(rule))
	}
	return errs
}

// validLabels reports whether every key and value of m is a valid label.
func validLabels(m map[string]string) bool {
	for k, v := range m {
		if !selector.ValidLabelKey(k) || !selector.ValidLabelValue(v) {
			return false
		}
	}
	return true
}

// validateExtensionSelector appends the findings about an instance type's node selector
// sel, found at l, against the extension's (R7) to errs: a key the extension sets to
// another value is always one; with strict, so is a key/value pair the extension lacks.
// One finding per key, sorted by key.
func validateExtensionSelector(sel, ext map[string]string, strict bool, l at, errs field.ErrorList) field.ErrorList {
	if len(ext) == 0 && !strict {
		return errs
	}
	ok := true
	for k, v := range sel {
		if !extensionAgrees(k, v, ext, strict) {
			ok = false
			break
		}
	}
	if ok {
		return errs
	}
	keys := make([]string, 0, len(sel))
	for k, v := range sel {
		if !extensionAgrees(k, v, ext, strict) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := sel[k]
		if ev, has := ext[k]; has {
			errs = append(errs, field.Invalid(l.key(k), clip.String(v),
				"the extension's nodeSelector sets "+clip.Quote(k)+" to "+clip.Quote(ev)+
					", so no node can match both; use "+clip.Quote(ev)+" or remove the key").WithOrigin(rules.R7))
			continue
		}
		errs = append(errs, field.Invalid(l.key(k), clip.String(v),
			"not in the extension's nodeSelector, and with the strict subset rule every key and value must also be there; "+
				"add "+clip.String(k)+"="+clip.String(v)+" to the extension's nodeSelector or remove it here").WithOrigin(rules.R7))
	}
	return errs
}

// extensionAgrees reports whether the pair k=v of an instance type's selector is
// acceptable beside the extension's selector ext.
func extensionAgrees(k, v string, ext map[string]string, strict bool) bool {
	ev, has := ext[k]
	if has {
		return ev == v
	}
	return !strict
}
