package selector

import (
	"k8s.io/apimachinery/pkg/labels"
)

// LabelSelector converts the selector m into an apimachinery labels.Selector
// that requires each key to equal its value, for callers that list nodes
// (for example with metav1.ListOptions{LabelSelector: s.String()}). A nil or
// empty m gives a selector that matches everything.
//
// m is validated first: if any key or value breaks the label grammar,
// LabelSelector returns nil and the errors of ValidateLabels(m, nil) as an
// aggregate error (k8s.io/apimachinery/pkg/util/errors.Aggregate of
// *field.Error, with paths such as "[my label]"). The returned selector does
// not share memory with m.
func LabelSelector(m map[string]string) (labels.Selector, error) {
	if errs := ValidateLabels(m, nil); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return labels.SelectorFromValidatedSet(m), nil
}
