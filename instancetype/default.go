package instancetype

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultName is the name of the instance type a workload gets when it names none. Every
// cluster has one: the built-in definition ([Default]) unless a custom instance type of
// this name overrides it.
const DefaultName = "defaultinstancetype"

// Default returns the built-in defaultinstancetype: requests of cpu 100m and memory 2Gi,
// limits of cpu 2 and memory 2Gi, no GPU and no node selector. It is not a custom resource
// in the cluster, but every client lists it.
//
// Each call returns a new object that the caller may modify freely.
func Default() *InstanceType {
	return &InstanceType{
		TypeMeta:   metav1.TypeMeta{APIVersion: APIVersion, Kind: Kind},
		ObjectMeta: metav1.ObjectMeta{Name: DefaultName},
		Spec: InstanceTypeSpec{
			Resources: ResourceRequirements{
				Requests: ResourceList{
					ResourceCPU:    MustParseAmount("100m"),
					ResourceMemory: MustParseAmount("2Gi"),
				},
				Limits: ResourceList{
					ResourceCPU:    MustParseAmount("2"),
					ResourceMemory: MustParseAmount("2Gi"),
				},
			},
		},
	}
}
