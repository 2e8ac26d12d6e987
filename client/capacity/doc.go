// Package capacity answers how many more pods of each instance type fit on a cluster now:
// per instance type and per node pool, counting the requests of the pods already bound to
// each node, and which resource runs out first. It is the library beside the kubectl
// plugin's capacity command (kubectl instancetype capacity), for a controller or a
// dashboard that asks the same.
//
// Two parts:
//
//   - [Compute], pure and fast: instance types and [Node]s (what package fit reads of a
//     node, plus the sum of its pods' requests) in, a [Report] out. Which nodes an
//     instance type may use is package fit's rule, taken from it (fit.Index.AppendCandidates:
//     its effective node selector, taints, cordons), not copied; how many of its pods fit
//     on one is the scheduler's arithmetic, floor((allocatable − requested) / request) for
//     each resource it requests, the fewest of them, within the node's pods, in the
//     scheduler's units: apimachinery's own MilliValue and Value of the amounts as the API
//     sends them ([Units]), overflow included (a node of cpu "1e18" has no room).
//   - [Reader], which lists InstanceTypes, Nodes and Pods from a cluster, page by page,
//     keeping per node only what Compute needs and nothing of the pods but their requests
//     summed as the scheduler sums them ([AddPod], over
//     k8s.io/component-helpers/resource.PodRequests), so that 5,000 nodes and 150,000 pods
//     are read in the memory of the nodes and one page. What RBAC forbids is recorded
//     ([ListError], in Cluster.Unread) and the rest answered; a cluster without the CRD
//     has the built-in default alone ([ErrNoCRD], Cluster.NoCRD). Whatever the API server
//     sends, a list is bounded in objects, in bytes and in the bytes of one answer
//     ([LimitError]); a repeated continue token, an answer cut off or one that does not
//     decode is an [AnswerError].
//
// Out of scope, as for the scheduler's NodeResourcesFit filter alone: affinity and
// anti-affinity, topology spread, DaemonSets yet to come, autoscaling (a pool scaled to
// zero has no node), preemption, and the dynamic resources of DRA claims.
package capacity
