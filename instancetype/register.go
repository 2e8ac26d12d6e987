package instancetype

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of instance types.
const GroupName = "amlarc.azureml.com"

// Version is the API version of the types in this package.
const Version = "v1alpha1"

// Kind names of the types in this package, as written in a manifest's kind field.
const (
	Kind     = "InstanceType"
	ListKind = "InstanceTypeList"
)

// SchemeGroupVersion is the group version of the types in this package:
// amlarc.azureml.com/v1alpha1.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: Version}

// APIVersion is SchemeGroupVersion as written in a manifest's apiVersion field.
const APIVersion = GroupName + "/" + Version

var (
	// SchemeBuilder collects the functions that add this package's types to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme registers InstanceType and InstanceTypeList, and the meta types a
	// group version needs (ListOptions, Status, ...), in a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Resource returns the group-qualified resource for the given plural resource name
// ("instancetypes"), as apierrors functions expect.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &InstanceType{}, &InstanceTypeList{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
