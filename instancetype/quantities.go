package instancetype

import "k8s.io/apimachinery/pkg/api/resource"

// Quantities converts l into apimachinery quantities, keyed by any string type, so that a
// controller can fill a pod spec without parsing again and without this module importing
// k8s.io/api:
//
//	limits := corev1.ResourceList(instancetype.Quantities[corev1.ResourceName](p.Limits()))
//
// Only valid amounts are included; unset and invalid ones are left out. It returns a new
// map, or nil when no amount is valid.
func Quantities[K ~string](l ResourceList) map[K]resource.Quantity {
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
			out[K(name)] = a.q.ToResource()
		}
	}
	return out
}
