package instancetype

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// InstanceType names a bundle of a node selector and resource requests and limits that
// training jobs and online deployments select by name.
type InstanceType struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata. metadata.name is required and unique in the
	// cluster; it is what workloads write in their instance_type field.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the node selector and the resources of the instance type.
	Spec InstanceTypeSpec `json:"spec,omitempty"`
}

// InstanceTypeSpec is the desired placement and size of the pods of a workload.
type InstanceTypeSpec struct {
	// nodeSelector is an optional map of node label keys to values. A workload runs on nodes
	// that carry all of them, and all of the extension's own nodeSelector too.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`

	// resources holds the compute resources of each pod. requests.cpu, requests.memory,
	// limits.cpu and limits.memory are required and must be greater than zero; extended
	// resources such as nvidia.com/gpu are whole numbers and appear in limits only.
	Resources ResourceRequirements `json:"resources,omitempty"`
}

// ResourceRequirements holds the requests and limits of compute resources, in the shape of
// a Kubernetes container's resources.
type ResourceRequirements struct {
	// limits is the most of each resource a pod may use.
	Limits ResourceList `json:"limits,omitempty"`
	// requests is the amount of each resource a pod is scheduled with. A request must not
	// exceed the limit of the same resource.
	Requests ResourceList `json:"requests,omitempty"`
}

// ResourceName is the name of a compute resource: "cpu", "memory", or a fully qualified
// extended resource such as "nvidia.com/gpu".
type ResourceName string

// The resource names an instance type carries.
const (
	// ResourceCPU is cpu, in cores: "1" is one core, "100m" a tenth of one.
	ResourceCPU ResourceName = "cpu"
	// ResourceMemory is memory, in bytes: "1500Mi", "2Gi", "4G".
	ResourceMemory ResourceName = "memory"
	// ResourceNvidiaGPU is the number of NVIDIA GPUs, a whole number, in limits only.
	ResourceNvidiaGPU ResourceName = "nvidia.com/gpu"
)

// ResourceList maps resource names to amounts. Indexing a missing name yields the zero
// Amount, which is unset, as null is.
type ResourceList map[ResourceName]Amount

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// InstanceTypeList is a list of instance types, as kubectl applies them from one manifest.
type InstanceTypeList struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard list metadata.
	metav1.ListMeta `json:"metadata,omitempty"`

	// items are the instance types of the list.
	Items []InstanceType `json:"items"`
}
