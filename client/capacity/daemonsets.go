package capacity

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/quantity"
)

// IsDaemonSetPod reports whether a DaemonSet controls pod p: the per-node overhead of a
// node, which every node of the DaemonSet runs whatever else lands there.
func IsDaemonSetPod(p *corev1.Pod) bool {
	for _, o := range p.OwnerReferences {
		if o.Kind == "DaemonSet" && o.Controller != nil && *o.Controller {
			return true
		}
	}
	return false
}

// ReadDaemonSetOverhead lists the pods bound to a node and not terminated, in every
// namespace, and returns, for each of nodes by name, what the DaemonSet pods bound to it
// request (summed as AddPod sums them, in the scheduler's units), and one of its pods
// each: the per-node overhead package plan counts (plan.Options.NodeOverhead). Every node
// has an entry, empty when no DaemonSet pod is bound to it. It returns a *ListError when
// RBAC forbids listing pods in every namespace.
func (r *Reader) ReadDaemonSetOverhead(ctx context.Context, nodes []Node) (map[string]plan.Resources, error) {
	sums := make([]Node, len(nodes))
	byName := make(map[string]int, len(nodes))
	for i := range nodes {
		sums[i] = Node{Node: nodes[i].Node, AllocatableUnits: nodes[i].AllocatableUnits}
		byName[nodes[i].Name] = i
	}
	start := func() {
		for i := range sums {
			sums[i].Requested, sums[i].Pods = nil, 0
		}
	}
	err := r.paginate(ctx, "pods", "", metav1.ListOptions{FieldSelector: boundAndRunning}, start, func(ctx context.Context, opts metav1.ListOptions) (string, int, error) {
		list, err := r.Core.CoreV1().Pods(metav1.NamespaceAll).List(ctx, opts)
		if err != nil {
			return "", 0, err
		}
		for i := range list.Items {
			p := &list.Items[i]
			if j, ok := byName[p.Spec.NodeName]; ok && IsDaemonSetPod(p) {
				AddPod(&sums[j], p)
			}
		}
		return list.Continue, len(list.Items), nil
	})
	if err != nil {
		return nil, listError(err, "pods", "")
	}
	out := make(map[string]plan.Resources, len(nodes))
	for _, x := range sums {
		over := plan.Resources{}
		for name, n := range x.Requested {
			if n <= 0 {
				continue
			}
			text := strconv.FormatInt(n, 10)
			if name == instancetype.ResourceCPU {
				text += "m"
			}
			if q, err := quantity.Parse(text); err == nil {
				if name == instancetype.ResourceMemory {
					q = q.WithFormat(quantity.BinarySI)
				}
				over[name] = q
			}
		}
		if x.Pods > 0 {
			over[plan.ResourcePods] = quantity.MustParse(strconv.Itoa(x.Pods))
		}
		out[x.Name] = over
	}
	return out, nil
}
