// Package apimachineryresolve is a benchmark, not a library: it resolves workloads the way
// a controller would with apimachinery alone, beside package resolve doing the same, so
// that one `go test -bench` run (scripts/bench.sh) compares them.
//
// The apimachinery way holds each instance type's requests and limits as
// resource.Quantity maps (what a corev1.ResourceList is; k8s.io/api itself is not a
// dependency of this module), keeps the catalog in a map behind a sync.RWMutex, checks the
// selectors with labels.Conflicts and merges them with labels.Merge (only when both are
// set, as a careful author would), and compares limits with resource.Quantity.Cmp.
// Field paths are built only for errors, as package resolve does. The rules applied are
// resolve's (R6, R7, R9), without the did-you-mean of an unknown name.
package apimachineryresolve
