// Package instancetypes is a Go SDK for the instance types of Azure Machine Learning on
// Kubernetes: the InstanceType custom resource (amlarc.azureml.com/v1alpha1) that bundles a
// nodeSelector with cpu, memory and GPU requests and limits, which training jobs and
// online deployments pick by name, falling back to the built-in defaultinstancetype.
//
// This root package holds no code; it documents how the packages fit together.
//
//   - instancetype: the API types, their scheme registration and deep copies, and Default,
//     the built-in defaultinstancetype.
//   - quantity: Kubernetes resource quantities ("100m", "2Gi"), parsed exactly as
//     apimachinery parses them, without allocating and many times faster.
//   - selector: node selectors as label maps: Merge, IsSubset, Matches, label validation.
//   - validate: every documented rule, as field.ErrorLists with precise paths.
//   - resolve: the catalog of instance types with its built-in default, and what a
//     workload really gets: instance type, merged node selector, requests and limits.
//   - manifest: YAML and JSON files into objects, with the line of every field.
//   - cmd/instancetype: the command-line tool (validate, resolve, list).
//
// An end-to-end use, from files to findings and placements:
//
//	files, _ := manifest.ParseFS(os.DirFS("examples"), ".")
//	var types []*instancetype.InstanceType
//	for _, f := range files {
//		for _, d := range f.Documents {
//			types = append(types, d.InstanceTypes...)
//		}
//	}
//	catalog := resolve.NewCatalog(types...)
//	for _, f := range files {
//		for _, d := range f.Documents {
//			for i, it := range d.InstanceTypes {
//				for _, e := range d.Locate(validate.InstanceType(it, d.ItemPath(i), validate.Options{})) {
//					fmt.Println(e) // FILE:LINE: FIELD: MESSAGE
//				}
//			}
//			if w := d.Workload; w != nil {
//				p, errs := resolve.Resolve(catalog, w, nil, nil)
//				fmt.Println(p.InstanceType, p.NodeSelector, len(errs))
//			}
//		}
//	}
package instancetypes
