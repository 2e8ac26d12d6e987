package fit

import (
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Demand is what one pod of a placement asks of a node: an effective node selector and
// the resources it requests.
type Demand struct {
	// NodeSelector is the effective selector: the union of the extension's selector and
	// the instance type's (selector.Merge). Nil or empty matches every node. Check only
	// reads it.
	NodeSelector map[string]string
	// Requests are the resources the pod is scheduled with: the cpu and memory requests,
	// and the limit of each extended resource (for which Kubernetes makes the request
	// equal to the limit). Zero and negative amounts ask for nothing and are ignored.
	// Check only reads it.
	Requests map[instancetype.ResourceName]quantity.Quantity
	// Tolerations are the pod's tolerations: a node's NoSchedule or NoExecute taint that
	// one of them tolerates does not exclude it (a cordoned node stays excluded). Nil
	// tolerates nothing. For an Azure ML workload, see Workload; Check and
	// AppendCandidates only read it.
	Tolerations []cluster.Toleration
}

// DemandOf returns the demand of a placement with the effective selector sel and the
// effective requests and limits of an instance type or a workload (resolve.Placement's
// NodeSelector, Requests and Limits):
//
//   - cpu and memory come from requests; when a request is unset (missing or null), from
//     the limit of the same resource, as Kubernetes defaults a missing request to the limit.
//   - every other resource (an extended resource such as nvidia.com/gpu) comes from limits:
//     requests do not carry them (validate reports one that does), and the scheduler
//     requests exactly the limit.
//
// Only usable amounts greater than zero are taken: an amount with a problem of its own (not
// a quantity, white space around it, a GPU of 0.5, a resource name that is no resource's)
// has a finding of its own and is not judged again, and zero (nvidia.com/gpu: 0) asks for
// nothing. sel is used as is, not copied. The
// Requests map is new, nil when nothing is asked for.
func DemandOf(sel map[string]string, requests, limits instancetype.ResourceList) Demand {
	d := Demand{NodeSelector: sel}
	add := func(name instancetype.ResourceName, a instancetype.Amount) {
		q, err := a.Quantity()
		if err != nil || q.Sign() <= 0 || !rules.Usable(name, a) {
			return
		}
		if d.Requests == nil {
			d.Requests = make(map[instancetype.ResourceName]quantity.Quantity, 2+len(limits))
		}
		d.Requests[name] = q
	}
	for _, name := range [...]instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory} {
		a := requests[name]
		if !a.IsSet() {
			a = limits[name]
		}
		add(name, a)
	}
	for name, a := range limits {
		if name != instancetype.ResourceCPU && name != instancetype.ResourceMemory {
			add(name, a)
		}
	}
	return d
}
