package capacity_test

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// The naive model of capacity, written apart from Compute: for each instance type, each
// node it may use (the last of each name; labels carrying every pair of the merged
// selector; not cordoned; no NoSchedule or NoExecute taint), pods are added one at a
// time while every resource still covers one more, and the pods limit too.

// naiveDemand is what one pod of an instance type takes, in the scheduler's units.
type naiveDemand struct {
	name string
	sel  map[string]string
	reqs map[instancetype.ResourceName]int64
}

// naiveCapacity returns the capacity of each demand on nodes, keyed by instance type.
func naiveCapacity(demands []naiveDemand, nodes []capacity.Node, poolLabel string) map[string]capacity.TypeCapacity {
	last := map[string]int{}
	for i, x := range nodes {
		if x.Name != "" {
			last[x.Name] = i
		}
	}
	out := map[string]capacity.TypeCapacity{}
	for _, d := range demands {
		tc := capacity.TypeCapacity{InstanceType: d.name, Pools: []capacity.PoolCapacity{}}
		pools := map[string]*capacity.PoolCapacity{}
		poolLim := map[string]map[instancetype.ResourceName]int{}
		allLim := map[instancetype.ResourceName]int{}
		for i, x := range nodes {
			if x.Name != "" && last[x.Name] != i {
				continue
			}
			if !naiveMayUse(x, d.sel) {
				continue
			}
			n, lim := naiveOnNode(x, d.reqs)
			pool := naivePool(x, poolLabel)
			p := pools[pool]
			if p == nil {
				p = &capacity.PoolCapacity{Pool: pool}
				pools[pool] = p
				poolLim[pool] = map[instancetype.ResourceName]int{}
			}
			p.Nodes++
			p.Fits += n
			tc.Fits += n
			if lim != "" {
				poolLim[pool][lim]++
				allLim[lim]++
			}
		}
		var names []string
		for name := range pools {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := pools[name]
			p.LimitedBy = naiveMost(poolLim[name])
			tc.Pools = append(tc.Pools, *p)
		}
		tc.LimitedBy = naiveMost(allLim)
		out[d.name] = tc
	}
	return out
}

func naiveMayUse(x capacity.Node, sel map[string]string) bool {
	if x.Unschedulable {
		return false
	}
	for _, t := range x.Taints {
		if t.Effect == "NoSchedule" || t.Effect == "NoExecute" {
			return false
		}
	}
	for k, v := range sel {
		if got, ok := x.Labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

func naivePool(x capacity.Node, label string) string {
	if label != "" {
		return x.Labels[label]
	}
	if v, ok := x.Labels["kubernetes.azure.com/agentpool"]; ok {
		return v
	}
	return x.Labels["agentpool"]
}

// naiveAllocatable is the node's allocatable amount of name, in the scheduler's units:
// apimachinery's MilliValue (cpu) or Value of the amount as the API server sends it (its
// canonical text, parsed), as the scheduler's framework.Resource takes it.
func naiveAllocatable(x capacity.Node, name instancetype.ResourceName) int64 {
	q, ok := x.Allocatable[name]
	if !ok {
		return 0
	}
	r := resource.MustParse(q.String())
	if name == "cpu" {
		return r.MilliValue()
	}
	return r.Value()
}

// naiveOnNode adds pods one at a time, and returns how many fit and the resource that
// stopped them (of several, by the documented order: extended, cpu, memory, pods).
func naiveOnNode(x capacity.Node, reqs map[instancetype.ResourceName]int64) (int64, instancetype.ResourceName) {
	used := map[instancetype.ResourceName]int64{}
	for name, v := range x.Requested {
		used[name] = max(v, 0)
	}
	pods := int64(x.Pods)
	podsLimit, limited := int64(0), false
	if _, ok := x.Allocatable["pods"]; ok {
		podsLimit, limited = naiveAllocatable(x, "pods"), true
	}
	var n int64
	for {
		var short []instancetype.ResourceName
		for name, r := range reqs {
			if used[name]+r > naiveAllocatable(x, name) {
				short = append(short, name)
			}
		}
		if limited && pods+1 > podsLimit {
			short = append(short, "pods")
		}
		if len(short) > 0 {
			return n, naiveFirst(short)
		}
		for name, r := range reqs {
			used[name] += r
		}
		pods++
		n++
		if n > 1_000_000 {
			panic(fmt.Sprintf("naive model: no end on %s", x.Name))
		}
	}
}

// naiveOrder is the order of ties.
func naiveOrder(name instancetype.ResourceName) string {
	switch name {
	case "cpu":
		return "1"
	case "memory":
		return "2"
	case "pods":
		return "3"
	}
	return "0" + string(name)
}

func naiveFirst(names []instancetype.ResourceName) instancetype.ResourceName {
	sort.Slice(names, func(i, j int) bool { return naiveOrder(names[i]) < naiveOrder(names[j]) })
	return names[0]
}

func naiveMost(counts map[instancetype.ResourceName]int) instancetype.ResourceName {
	var best instancetype.ResourceName
	n := 0
	for name, k := range counts {
		if k > n || k == n && naiveOrder(name) < naiveOrder(best) {
			best, n = name, k
		}
	}
	return best
}
