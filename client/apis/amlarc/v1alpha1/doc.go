// Package v1alpha1 names the InstanceType API (amlarc.azureml.com/v1alpha1) where
// Kubernetes' code generators and client-go users expect it: apis/GROUP/VERSION.
//
// It holds no types of its own. Every name is an alias of, or the same value as, the
// name in package github.com/amlarc-go/instancetypes/instancetype, so the generated
// clientset, informers and listers of this module hand out *instancetype.InstanceType,
// which package resolve and package validate take as they are:
//
//	it, _ := lister.Get("gpu-large")               // *v1alpha1.InstanceType
//	errs := validate.InstanceType(it, nil, opts)   // the same type: no conversion
//
// +groupName=amlarc.azureml.com
package v1alpha1
