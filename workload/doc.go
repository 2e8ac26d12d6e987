// Package workload holds the plain data type of an Azure Machine Learning workload that
// selects an instance type: a [Workload] of one [Kind], an online deployment
// ([OnlineDeployment]) or a job on a compute target ([ComputeJob]). Package resolve places
// a workload, package validate checks it, and the decoders (package azureml) fill it in
// from files; all of them share this type, which holds data only, with no rules of its own
// beyond where its fields are written ([Workload.InstanceTypePath],
// [Workload.ResourcesPath]).
//
// The values of the kinds, "KubernetesOnlineDeployment" and "CommandJob", name the schemas
// of the Azure ML CLI v2 that define them; the command prints them as they are.
package workload
