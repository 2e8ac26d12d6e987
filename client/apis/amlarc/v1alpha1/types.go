package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// InstanceType is instancetype.InstanceType.
type InstanceType = instancetype.InstanceType

// InstanceTypeList is instancetype.InstanceTypeList.
type InstanceTypeList = instancetype.InstanceTypeList

// InstanceTypeSpec is instancetype.InstanceTypeSpec.
type InstanceTypeSpec = instancetype.InstanceTypeSpec

// ResourceRequirements is instancetype.ResourceRequirements.
type ResourceRequirements = instancetype.ResourceRequirements

// ResourceList is instancetype.ResourceList.
type ResourceList = instancetype.ResourceList

// ResourceName is instancetype.ResourceName.
type ResourceName = instancetype.ResourceName

// Amount is instancetype.Amount.
type Amount = instancetype.Amount

// GroupName is the API group, amlarc.azureml.com.
const GroupName = instancetype.GroupName

// SchemeGroupVersion is amlarc.azureml.com/v1alpha1.
var SchemeGroupVersion = instancetype.SchemeGroupVersion

var (
	// SchemeBuilder is instancetype.SchemeBuilder.
	SchemeBuilder = instancetype.SchemeBuilder
	// AddToScheme registers InstanceType and InstanceTypeList in a runtime.Scheme.
	AddToScheme = instancetype.AddToScheme
)

// Resource returns the group-qualified resource of the plural name ("instancetypes").
func Resource(resource string) schema.GroupResource {
	return instancetype.Resource(resource)
}

// Kind returns the group-qualified kind of the given kind name ("InstanceType").
func Kind(kind string) schema.GroupKind {
	return SchemeGroupVersion.WithKind(kind).GroupKind()
}
