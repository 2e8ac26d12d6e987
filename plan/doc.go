// Package plan tells how well instance types pack on a cluster's node pools, and proposes
// instance types that pack well: the "efficient use of compute" of Azure ML's instance
// types. It is the library below the instancetype command's plan and suggest, usable from
// a controller or a dashboard.
//
// [Compute] (or [New] and [Planner.Plan]) answers, for each instance type and each pool it
// may use, how many of its pods fit on one empty node of the pool (its smallest), how many
// on the whole pool, which resource runs out first and what is left stranded on that node.
// [Planner.Suggest] proposes, per pool, a whole, half and quarter node (a GPU pool: one
// instance type per k GPUs) whose packing claim holds. [Planner.Strands] finds the
// resources an instance type leaves more than a share of idle on every node it may use:
// package lint's rule "stranded".
//
// # Rules
//
//   - A node's pool is the value of its label kubernetes.azure.com/agentpool, else
//     agentpool, or of Options.PoolLabel.
//   - The nodes an instance type may use are package fit's candidates of its demand
//     (fit.DemandOf its effective selector, requests and limits, with the tolerations of
//     Azure ML's workload pods and Options.Tolerations): labels matching the selector
//     merged with the extension's, schedulable, no NoSchedule or NoExecute taint left
//     untolerated. Package fit decides; this package does not copy its rules.
//   - On a node, the overhead is taken first: Options.Overhead.PerNode (the Azure ML
//     extension's fluent-bit DaemonSet by default: [FluentBit]), or the node's own in
//     Options.NodeOverhead. Each pod then requests the instance type's requests (cpu and
//     memory, and the limit of each extended resource) plus Options.Overhead.PerPod (an
//     online deployment's identity sidecar: [IdentitySidecar]; a job's pods have none), and
//     one of the node's allocatable pods when it counts them.
//   - The pods that fit on an empty node are the scheduler's arithmetic of its
//     NodeResourcesFit filter: for each resource requested, floor(free / request) in the
//     scheduler's units ([Units]: millicores, bytes, GPUs; rounded up), the fewest.
//
// Pods are counted on empty nodes: the pods already running are not (the client module's
// capacity counts them). Affinity, topology spread and autoscaling are out of scope, as
// for package fit.
//
// # Cost
//
// [New] is linear in the nodes; [Planner.Plan] costs the listing of a type's candidate
// nodes plus a few divisions per candidate and resource: a plan is linear in nodes times
// instance types (BenchmarkCompute: 5,000 nodes and 1,000 instance types).
package plan
