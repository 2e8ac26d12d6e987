package resolve

import (
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/workload"
)

// Placement is what a workload gets: its instance type, the nodes it may run on and its
// resources.
//
// A Placement refers to the workload's, the extension's and the catalog's maps without
// copying them, so that resolving costs no allocation; its methods never hand those maps
// out. [Placement.NodeSelector], [Placement.Requests] and [Placement.Limits] return new
// maps the caller owns (ready for a pod spec); [Placement.Request], [Placement.Limit] and
// [Placement.Matches] read without allocating.
type Placement struct {
	// Kind is the workload's kind.
	Kind workload.Kind
	// Name is the workload's name, "" if it has none.
	Name string
	// InstanceType is the name of the effective instance type: the one the workload names,
	// or instancetype.DefaultName when it names none.
	InstanceType string
	// BuiltIn reports that InstanceType is the built-in defaultinstancetype, not a custom
	// instance type.
	BuiltIn bool
	// Found reports that the catalog holds InstanceType. A placement whose instance type
	// was not found has only the extension's selector and the workload's own resources.
	Found bool

	// The effective node selector is the union of ext and sel; sel is nil when the two
	// conflict (and Resolve reported it).
	ext, sel map[string]string
	// requests are the effective requests. The effective limits are own, completed from
	// typ: own's entry where it sets one, else typ's.
	requests  instancetype.ResourceList
	own, typ  instancetype.ResourceList
	completed bool // typ completes own: own is the deployment's, typ the instance type's
}

// NodeSelector returns the effective node selector, a new map the caller may change: the
// union of the extension's selector and the instance type's (only the extension's when they
// conflict or the type is unknown). It is empty, not nil, when both are empty: any node.
func (p Placement) NodeSelector() map[string]string {
	m, err := selector.Merge(p.ext, p.sel)
	if err != nil { // p.sel is nil on conflict; cannot happen, but never panic
		m, _ = selector.Merge(p.ext, nil)
	}
	if m == nil {
		m = map[string]string{}
	}
	return m
}

// Matches reports whether a node with the given labels matches the effective node
// selector. It does not allocate.
func (p Placement) Matches(labels map[string]string) bool {
	return selector.Matches(p.ext, labels) && selector.Matches(p.sel, labels)
}

// Requests returns the effective requests, a new list: the deployment's own when it has a
// resources section, else the instance type's. It is nil when there are none.
func (p Placement) Requests() instancetype.ResourceList { return cloneList(p.requests) }

// Request returns the effective request of the resource name; the zero Amount (unset) when
// there is none. It does not allocate.
func (p Placement) Request(name instancetype.ResourceName) instancetype.Amount {
	return p.requests[name]
}

// Limits returns the effective limits, a new list: the deployment's own limits completed
// from the instance type's (a resource the deployment does not limit, or limits with null,
// is capped by the type's limit), or the type's limits when the workload has no resources
// section. It is nil when there are none.
func (p Placement) Limits() instancetype.ResourceList {
	if !p.completed {
		return cloneList(p.own)
	}
	out := make(instancetype.ResourceList, len(p.own)+len(p.typ))
	for name, a := range p.typ {
		out[name] = a
	}
	for name, a := range p.own {
		if a.IsSet() || !out[name].IsSet() {
			out[name] = a
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Limit returns the effective limit of the resource name, as [Placement.Limits] would hold
// it; the zero Amount (unset) when there is none. It does not allocate.
func (p Placement) Limit(name instancetype.ResourceName) instancetype.Amount {
	if a := p.own[name]; a.IsSet() || !p.completed {
		return a
	}
	return p.typ[name]
}

// cloneList returns a copy of l, nil when l is empty.
func cloneList(l instancetype.ResourceList) instancetype.ResourceList {
	if len(l) == 0 {
		return nil
	}
	out := make(instancetype.ResourceList, len(l))
	for name, a := range l {
		out[name] = a
	}
	return out
}
