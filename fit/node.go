package fit

import (
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Node is what the check needs of a Kubernetes v1 Node: its name, labels, allocatable
// resources, taints and whether it is cordoned. The reader of `kubectl get nodes -o yaml`
// fills it in; any value is accepted, including nil maps, an empty name and zero or
// negative quantities.
type Node struct {
	// Name is metadata.name. Of several nodes with the same non-empty name, NewIndex keeps
	// the last, as a cluster holds only one; nodes without a name are each kept.
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

// The taint effects of Kubernetes, as spec.taints[*].effect spells them.
const (
	NoSchedule       = "NoSchedule"       // new pods without a toleration are not scheduled
	PreferNoSchedule = "PreferNoSchedule" // a preference only: the node stays a candidate
	NoExecute        = "NoExecute"        // pods without a toleration are not scheduled, and evicted
)

// Taint is one of a node's spec.taints.
type Taint struct {
	Key    string // key, a label key
	Value  string // value, possibly empty
	Effect string // effect: NoSchedule, PreferNoSchedule or NoExecute
}

// Excludes reports whether t keeps a pod that does not tolerate it off the node: whether
// its effect is NoSchedule or NoExecute, as the scheduler's TaintToleration filter has it.
// PreferNoSchedule and effects Kubernetes does not know (which its API refuses) exclude
// nothing.
func (t Taint) Excludes() bool { return t.Effect == NoSchedule || t.Effect == NoExecute }

// String renders t as kubectl does: key=value:Effect, or key:Effect when the value is
// empty. The text is not quoted or shortened; messages do that.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// Pair is one key/value pair of a node selector, or one label of a node.
type Pair struct {
	Key   string
	Value string
}

// String renders p as key=value, unquoted.
func (p Pair) String() string { return p.Key + "=" + p.Value }
