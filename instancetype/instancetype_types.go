package instancetype

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,path=instancetypes,singular=instancetype
// +kubebuilder:metadata:annotations="amlarc-go.github.io/schema=a compatible schema for tests, editors and development clusters; the Azure ML extension installs the real one"
// +kubebuilder:printcolumn:name="CPU",type=string,JSONPath=`.spec.resources.limits.cpu`,description="cpu limit"
// +kubebuilder:printcolumn:name="Memory",type=string,JSONPath=`.spec.resources.limits.memory`,description="memory limit"
// +kubebuilder:printcolumn:name="GPU",type=string,JSONPath=`.spec.resources.limits.nvidia\.com/gpu`,description="nvidia.com/gpu limit"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// InstanceType names a bundle of a node selector and resource requests and limits that
// training jobs and online deployments select by name.
type InstanceType struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata. metadata.name is required and unique in the
	// cluster; it is what workloads write in their instance_type field.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the node selector and the resources of the instance type.
	// +required
	Spec InstanceTypeSpec `json:"spec,omitempty"`
}

// InstanceTypeSpec is the desired placement and size of the pods of a workload.
type InstanceTypeSpec struct {
	// nodeSelector is an optional map of node label keys to values. A workload runs on nodes
	// that carry all of them, and all of the extension's own nodeSelector too.
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, !format.qualifiedName().validate(k).hasValue())",message="keys must be label keys: an optional DNS subdomain prefix and a '/', then a name of at most 63 letters, digits, '-', '_' and '.' that starts and ends with a letter or digit"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !format.labelValue().validate(self[k]).hasValue())",message="values must be label values: empty, or at most 63 letters, digits, '-', '_' and '.' that start and end with a letter or digit"

	NodeSelector map[string]string `json:"nodeSelector,omitempty"`

	// resources holds the compute resources of each pod. requests.cpu, requests.memory,
	// limits.cpu and limits.memory are required and must be greater than zero; extended
	// resources such as nvidia.com/gpu are whole numbers and appear in limits only.
	// +required
	Resources ResourceRequirements `json:"resources,omitempty"`
}

// +kubebuilder:validation:XValidation:rule="!has(self.requests) || !has(self.limits) || !('cpu' in self.requests) || !('cpu' in self.limits) || self.requests['cpu'] == null || self.limits['cpu'] == null || !(size(string(self.requests['cpu'])) <= 64 && (string(self.requests['cpu']).lastIndexOf('e') < 0 || size(string(self.requests['cpu'])) - string(self.requests['cpu']).lastIndexOf('e') <= 5) && (string(self.requests['cpu']).lastIndexOf('E') < 0 || size(string(self.requests['cpu'])) - string(self.requests['cpu']).lastIndexOf('E') <= 5) && isQuantity(string(self.requests['cpu']))) || !(size(string(self.limits['cpu'])) <= 64 && (string(self.limits['cpu']).lastIndexOf('e') < 0 || size(string(self.limits['cpu'])) - string(self.limits['cpu']).lastIndexOf('e') <= 5) && (string(self.limits['cpu']).lastIndexOf('E') < 0 || size(string(self.limits['cpu'])) - string(self.limits['cpu']).lastIndexOf('E') <= 5) && isQuantity(string(self.limits['cpu']))) || !quantity(string(self.requests['cpu'])).isGreaterThan(quantity(string(self.limits['cpu'])))",message="the cpu request must be less than or equal to the cpu limit",fieldPath=".requests.cpu"
// +kubebuilder:validation:XValidation:rule="!has(self.requests) || !has(self.limits) || !('memory' in self.requests) || !('memory' in self.limits) || self.requests['memory'] == null || self.limits['memory'] == null || !(size(string(self.requests['memory'])) <= 64 && (string(self.requests['memory']).lastIndexOf('e') < 0 || size(string(self.requests['memory'])) - string(self.requests['memory']).lastIndexOf('e') <= 5) && (string(self.requests['memory']).lastIndexOf('E') < 0 || size(string(self.requests['memory'])) - string(self.requests['memory']).lastIndexOf('E') <= 5) && isQuantity(string(self.requests['memory']))) || !(size(string(self.limits['memory'])) <= 64 && (string(self.limits['memory']).lastIndexOf('e') < 0 || size(string(self.limits['memory'])) - string(self.limits['memory']).lastIndexOf('e') <= 5) && (string(self.limits['memory']).lastIndexOf('E') < 0 || size(string(self.limits['memory'])) - string(self.limits['memory']).lastIndexOf('E') <= 5) && isQuantity(string(self.limits['memory']))) || !quantity(string(self.requests['memory'])).isGreaterThan(quantity(string(self.limits['memory'])))",message="the memory request must be less than or equal to the memory limit",fieldPath=".requests.memory"

// ResourceRequirements holds the requests and limits of compute resources, in the shape of
// a Kubernetes container's resources.
type ResourceRequirements struct {
	// limits is the most of each resource a pod may use. cpu and memory are required and
	// greater than zero; extended resources such as nvidia.com/gpu are whole numbers, and
	// null means none.
	// +required
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="'cpu' in self && self['cpu'] != null",message="cpu is required",fieldPath=".cpu",reason=FieldValueRequired
	// +kubebuilder:validation:XValidation:rule="'memory' in self && self['memory'] != null",message="memory is required",fieldPath=".memory",reason=FieldValueRequired
	// +kubebuilder:validation:XValidation:rule="!('cpu' in self) || self['cpu'] == null || (size(string(self['cpu'])) <= 64 && (string(self['cpu']).lastIndexOf('e') < 0 || size(string(self['cpu'])) - string(self['cpu']).lastIndexOf('e') <= 5) && (string(self['cpu']).lastIndexOf('E') < 0 || size(string(self['cpu'])) - string(self['cpu']).lastIndexOf('E') <= 5) && isQuantity(string(self['cpu'])) && quantity(string(self['cpu'])).isGreaterThan(quantity('0')))",message="cpu must be a quantity greater than zero, such as 500m or 2",fieldPath=".cpu"
	// +kubebuilder:validation:XValidation:rule="!('memory' in self) || self['memory'] == null || (size(string(self['memory'])) <= 64 && (string(self['memory']).lastIndexOf('e') < 0 || size(string(self['memory'])) - string(self['memory']).lastIndexOf('e') <= 5) && (string(self['memory']).lastIndexOf('E') < 0 || size(string(self['memory'])) - string(self['memory']).lastIndexOf('E') <= 5) && isQuantity(string(self['memory'])) && quantity(string(self['memory'])).isGreaterThan(quantity('0')))",message="memory must be a quantity greater than zero, such as 1500Mi or 2Gi",fieldPath=".memory"
	// +kubebuilder:validation:XValidation:rule="self.all(k, k == 'cpu' || k == 'memory' || (k.contains('/') && !format.qualifiedName().validate(k).hasValue() && !k.contains('kubernetes.io/') && !k.startsWith('requests.') && k.indexOf('/') <= 244))",message="resource names are cpu, memory, or fully qualified extended resource names such as nvidia.com/gpu"
	// +kubebuilder:validation:XValidation:rule="self.all(k, k == 'cpu' || k == 'memory' || self[k] == null || (size(string(self[k])) <= 64 && (string(self[k]).lastIndexOf('e') < 0 || size(string(self[k])) - string(self[k]).lastIndexOf('e') <= 5) && (string(self[k]).lastIndexOf('E') < 0 || size(string(self[k])) - string(self[k]).lastIndexOf('E') <= 5) && isQuantity(string(self[k])) && !quantity(string(self[k])).isLessThan(quantity('0')) && (quantity(string(self[k])).isGreaterThan(quantity('9223372036854775807')) || int(quantity(string(self[k])).sub(int(quantity(string(self[k])).asApproximateFloat() - 4096.0)).asApproximateFloat() * 1000000000.0 + 0.5) % 1000000000 == 0)))",message="extended resources such as nvidia.com/gpu must be whole numbers, 0 or more"
	Limits ResourceList `json:"limits,omitempty"`
	// requests is the amount of each resource a pod is scheduled with. cpu and memory are
	// required and greater than zero, and must not exceed the limit of the same resource;
	// extended resources are set in limits only.
	// +required
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="'cpu' in self && self['cpu'] != null",message="cpu is required",fieldPath=".cpu",reason=FieldValueRequired
	// +kubebuilder:validation:XValidation:rule="'memory' in self && self['memory'] != null",message="memory is required",fieldPath=".memory",reason=FieldValueRequired
	// +kubebuilder:validation:XValidation:rule="!('cpu' in self) || self['cpu'] == null || (size(string(self['cpu'])) <= 64 && (string(self['cpu']).lastIndexOf('e') < 0 || size(string(self['cpu'])) - string(self['cpu']).lastIndexOf('e') <= 5) && (string(self['cpu']).lastIndexOf('E') < 0 || size(string(self['cpu'])) - string(self['cpu']).lastIndexOf('E') <= 5) && isQuantity(string(self['cpu'])) && quantity(string(self['cpu'])).isGreaterThan(quantity('0')))",message="cpu must be a quantity greater than zero, such as 500m or 2",fieldPath=".cpu"
	// +kubebuilder:validation:XValidation:rule="!('memory' in self) || self['memory'] == null || (size(string(self['memory'])) <= 64 && (string(self['memory']).lastIndexOf('e') < 0 || size(string(self['memory'])) - string(self['memory']).lastIndexOf('e') <= 5) && (string(self['memory']).lastIndexOf('E') < 0 || size(string(self['memory'])) - string(self['memory']).lastIndexOf('E') <= 5) && isQuantity(string(self['memory'])) && quantity(string(self['memory'])).isGreaterThan(quantity('0')))",message="memory must be a quantity greater than zero, such as 1500Mi or 2Gi",fieldPath=".memory"
	// +kubebuilder:validation:XValidation:rule="self.all(k, k == 'cpu' || k == 'memory' || (self[k] == null && (k.contains('/') && !format.qualifiedName().validate(k).hasValue() && !k.contains('kubernetes.io/') && !k.startsWith('requests.') && k.indexOf('/') <= 244)))",message="requests may name cpu and memory only: extended resources such as nvidia.com/gpu are set in limits only"
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
