package cluster

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
