// Package fit checks whether a placement — the effective node selector and resource
// requests of an instance type or a workload — can land on some node of a cluster, given
// the cluster's nodes as `kubectl get nodes -o yaml` shows them (package cluster's
// [cluster.Node], with its taints, and the pod's tolerations). It finds before run time
// what Azure Machine Learning reports only when a job starts ("the instance type defined
// resource requirement has exceeded the node size") or never (pods pending because no node
// carries the labels of the merged selector), and says why.
//
// [NewIndex] indexes the nodes once; [Index.Check] tests a [Demand] against them and
// returns a [Result]: how many nodes match, how many are candidates, how many it fits, and,
// when it fits none, an explanation that [Result.Errors] renders as field errors.
// [DemandOf] builds a demand from a placement's selector, requests and limits.
// [Index.AppendCandidates] lists the candidates of a demand by the same rules, for a caller
// that accounts for resources itself: the client module's package capacity, which counts
// how many more pods fit beside those already running, takes its selector, taint,
// toleration and cordon rules from here (one method of the index decides exclusion for
// both), so that a change of them here reaches it.
//
// # Rules
//
// For a demand with the effective selector S (the extension's selector merged with the
// instance type's, see package selector) and the requests R:
//
//   - A node matches when its labels carry every pair of S: each key, with exactly the
//     value (selector.Matches). An empty S matches every node.
//   - A matching node is a candidate when it is schedulable (spec.unschedulable is not set)
//     and carries no taint whose effect is NoSchedule or NoExecute that the demand's
//     Tolerations do not tolerate (by Kubernetes' rule, [cluster.Toleration.Tolerates]).
//     PreferNoSchedule, and effects Kubernetes does not know, exclude nothing. A cordoned
//     node counts as cordoned whatever its taints and tolerations (cordoning adds
//     node.kubernetes.io/unschedulable:NoSchedule).
//   - A candidate fits when its status.allocatable covers every request of R: for each
//     resource with a positive amount, allocatable ≥ request, compared exactly
//     (quantity.Quantity.Cmp); a resource missing from allocatable counts as zero. R holds
//     the cpu and memory requests and the limit of every extended resource such as
//     nvidia.com/gpu, which Kubernetes requests at its limit.
//   - The demand fits the cluster when it fits at least one node. [Result.Fits] counts the
//     nodes one pod of it could land on; [Result.WouldFit] the matching nodes that are
//     excluded but large enough, which a toleration or an uncordon would make available.
//
// Of several nodes with the same name the last is kept, as the cluster holds only one.
//
// # Out of scope
//
// The check compares one pod with the allocatable resources of an empty node. It does
// not model:
//
//   - tolerations other than the demand's: the tolerations of an Azure ML pod come from
//     the extension and the platform, not from the instance type. [Workload] gives those
//     that Azure ML documents for its workload pods (below); a caller adds others (the
//     command's --tolerate). The findings name every taint that excludes a node and is not
//     tolerated, and the nodes that carry it.
//   - pods already running: their requests are not subtracted, and several replicas are
//     not packed together (the client module's capacity does both);
//   - DaemonSet overhead: the pods every node runs (the extension's own, logging, CSI
//     drivers) use part of allocatable, which the check does not subtract;
//   - the rest of scheduling: node affinity, pod affinity and anti-affinity, topology
//     spread, pod overhead, init containers and sidecars, the pods limit of a node, and
//     node conditions other than through taints (a NotReady node carries
//     node.kubernetes.io/not-ready:NoExecute, which does exclude it); nor autoscaling: a
//     pool scaled to zero has no node to check.
//
// A demand that fits may therefore still wait for capacity; one that does not fit cannot
// run on the nodes given, except by a toleration the check does not see.
//
// # Azure ML's taints
//
// Azure Machine Learning's "Reference for configuring Kubernetes cluster"
// (https://learn.microsoft.com/azure/machine-learning/reference-kubernetes, section
// "Supported Azure Machine Learning taints and tolerations") documents the taints an
// operator may put on nodes dedicated to Azure ML, each with effect NoSchedule, NoExecute
// or PreferNoSchedule, and which of the extension's pods tolerate them:
//
//	ml.azure.com/amlarc=true            every Azure ML pod, the extension's system services and workloads
//	ml.azure.com/amlarc-system=true     the extension's system services only
//	ml.azure.com/amlarc-workload=true   training and inference workloads only
//	ml.azure.com/resource-group=<rg>    workloads created from that resource group
//	ml.azure.com/workspace=<workspace>  workloads created from that workspace
//	ml.azure.com/compute=<compute>      workloads created with that compute target
//
// [Workload] returns the tolerations of a workload's pods: the overall and workload taints
// (value true), and the last three with the workload's own resource group, workspace and
// compute, each when known. Package lint gives an instance type Workload("", "", ""), and a
// workload those of its compute target (its name, and the resource group and workspace of
// its id, when the computes given say them).
//
// # Findings
//
// [Result.Errors] returns nothing for a demand that fits, else field.Invalid errors whose
// Origin is the rule id "fit" (see package lint's Rules):
//
//	no node matches the selector, at the selector's path, with the nearest miss:
//	  spec.nodeSelector: Invalid value: "accelerator=a100,agentpool=gpu": no node matches:
//	  3 nodes carry agentpool=gpu but not accelerator=a100 (they have accelerator=v100 or accelerator=t4)
//	every matching node excluded, at the selector's path, naming the taints and nodes:
//	  spec.nodeSelector: Invalid value: "agentpool=gpu": all 3 matching nodes are excluded:
//	  2 by taints (sku=gpu:NoSchedule on gpu-0 and gpu-1) and 1 by cordoning (gpu-2); all of them would fit
//	no candidate with enough of a resource, at that request's path, with the largest there is:
//	  spec.resources.requests[memory]: Invalid value: "64Gi": no candidate node has that much
//	  memory allocatable: the largest is 59364472Ki (about 56.6Gi), on aks-cpu-0; 1 more
//	  matching node is cordoned (aks-cpu-1), and it would fit
//	each request on some candidate, all of them on none, at the request the fewest cover:
//	  spec.resources.requests[cpu]: Invalid value: "8": no candidate node has cpu 8 and
//	  memory 32Gi allocatable at once, though each is on some
//
// The nearest miss is the largest part of the selector that some nodes carry (see [Miss]),
// with the values those nodes give each key they lack, the closest to the selector's value
// first, so that a typo shows. Lists name at most [MaxNamed] items and count the rest; user
// text is printed bare when it has the characters of labels only, quoted otherwise, and cut
// at 256 bytes (validate.MaxValueLen, the limit of every package), so that no input makes
// a large message.
//
// # Cost
//
// See [Index] for the layout. For 5,000 nodes in realistic pools and 200 instance types of
// which a quarter fit nowhere, checking every type takes about a millisecond, some 150 to
// 200 times less than a scan of every node per type (BenchmarkCheck); a demand that fits
// costs under a microsecond and no allocation, over a thousand times less than the scan.
// Explaining a failure costs time and memory linear in the nodes and their labels, on that
// path only: some 15 µs for 5,000 nodes. The index itself keeps about 6 bytes per node
// label.
//
// # Odd input
//
// Nothing here panics or fails on odd nodes: nil maps, empty names, missing status, zero or
// negative quantities, duplicate names, unknown taint effects, labels and names of any
// length or content. Reporting such nodes, and quantities that do not parse, is the
// reader's business; a node without status simply has nothing allocatable.
package fit
