// Package instancetype holds the API types of the InstanceType custom resource
// (group version amlarc.azureml.com/v1alpha1) of Azure Machine Learning on Kubernetes.
//
// An instance type bundles a node selector with resource requests and limits (cpu, memory
// and extended resources such as nvidia.com/gpu). Training jobs and online deployments name
// one in their instance_type field; those that name none use [DefaultName], whose built-in
// definition [Default] returns.
//
// The types follow the conventions of k8s.io/api: [InstanceType] and [InstanceTypeList] are
// runtime.Objects with generated deep-copy functions, and [AddToScheme] registers them in a
// runtime.Scheme, so a controller can decode them with apimachinery's universal
// deserializer:
//
//	scheme := runtime.NewScheme()
//	_ = instancetype.AddToScheme(scheme)
//	obj, _, err := serializer.NewCodecFactory(scheme).UniversalDeserializer().Decode(data, nil, nil)
//
// Resource values are held as [Amount]s: the text as written plus its parsed
// quantity.Quantity. Decoding never fails on a bad value and never calls apimachinery's
// resource.ParseQuantity; an Amount remembers whether it was missing or null (unset),
// written but unparsable (""), or a quantity ("0", "2Gi"), so that validation can tell the
// three apart and report each at its field path.
//
// Nothing here validates; see package validate for the rules.
//
// +k8s:deepcopy-gen=package
// +groupName=amlarc.azureml.com
// +versionName=v1alpha1
package instancetype

//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 object paths=.
