package cluster

import (
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Node is what the checks of placements need of a Kubernetes v1 Node: its name, labels,
// allocatable resources, taints and whether it is cordoned. A reader of
// `kubectl get nodes -o yaml` fills it in; any value is accepted, including nil maps, an
// empty name and zero or negative quantities.
type Node struct {
	// Name is metadata.name. A cluster holds only one node of each name; of several nodes
	// with the same non-empty name, fit.NewIndex keeps the last, and nodes without a name
	// are each kept.
	Name string
	// Labels is metadata.labels, matched against node selectors.
	Labels map[string]string
	// Allocatable is status.allocatable: what the kubelet offers to pods, after the system
	// reservations. Only quantities that parsed belong here; a resource that is missing
	// counts as zero.
	Allocatable map[instancetype.ResourceName]quantity.Quantity
	// Taints is spec.taints. Only those with effect NoSchedule or NoExecute exclude the
	// node; see Taint.Excludes.
	Taints []Taint
	// Unschedulable is spec.unschedulable: the node is cordoned.
	Unschedulable bool
}
