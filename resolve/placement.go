package resolve

import (
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// Placement is what a workload gets: its instance type, the nodes it may run on and its
// resources. The maps are shared with the workload, the extension's selector or the
// catalog (see the package documentation): they must not be modified.
type Placement struct {
	// Kind is the workload's kind.
	Kind WorkloadKind
	// Name is the workload's name, "" if it has none.
	Name string
	// InstanceType is the name of the effective instance type: the one the workload names,
	// or instancetype.DefaultName when it names none.
	InstanceType string
	// BuiltIn reports that InstanceType is the built-in defaultinstancetype, not a custom
	// instance type.
	BuiltIn bool
	// NodeSelector is the effective node selector: the union of the extension's selector
	// and the instance type's. Nil or empty means any node.
	NodeSelector map[string]string
	// Requests are the effective resource requests.
	Requests instancetype.ResourceList
	// Limits are the effective resource limits.
	Limits instancetype.ResourceList
}

// ResourceList converts l into apimachinery quantities, keyed by any string type, so that
// a controller can fill a pod spec without parsing again and without this module
// importing k8s.io/api:
//
//	limits := corev1.ResourceList(resolve.ResourceList[corev1.ResourceName](p.Limits))
//
// Only valid amounts are included; unset and invalid ones are left out. It returns nil
// when no amount is valid.
func ResourceList[K ~string](l instancetype.ResourceList) map[K]resource.Quantity {
	n := 0
	for _, a := range l {
		if a.IsValid() {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make(map[K]resource.Quantity, n)
	for name, a := range l {
		if a.IsValid() {
			q, _ := a.Quantity()
			out[K(name)] = q.ToResource()
		}
	}
	return out
}
