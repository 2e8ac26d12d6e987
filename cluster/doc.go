// Package cluster holds the plain data types of a Kubernetes cluster that the checks of
// placements read: a [Node] as `kubectl get nodes -o yaml` shows it (name, labels,
// allocatable resources, taints, whether it is cordoned), its [Taint]s with the effects
// [NoSchedule], [PreferNoSchedule] and [NoExecute], and a pod's [Toleration]s, which
// [ParseToleration] reads as the instancetype command's --tolerate takes them.
//
// The types hold data and Kubernetes' own rules about them only: which taints keep a pod
// off a node ([Taint.Excludes]) and which taints a toleration tolerates
// ([Toleration.Tolerates]), as the scheduler's TaintToleration filter has them. Package fit
// checks placements against nodes; the decoders fill nodes in from files; the client
// module's package capacity reads them from a cluster. This package depends on none of
// them.
package cluster
