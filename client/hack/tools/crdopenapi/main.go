// Command crdopenapi prints the OpenAPI v2 document that kube-apiserver publishes for a
// CustomResourceDefinition, as applyconfiguration-gen's --openapi-schema wants it.
//
//	crdopenapi -crd manifests/crd/amlarc.azureml.com_instancetypes.yaml -version v1alpha1 \
//		-type-package github.com/amlarc-go/instancetypes/instancetype \
//		-go-package github.com/amlarc-go/instancetypes/client/apis/amlarc/v1alpha1 > openapi.json
//
// The document is built by apiextensions-apiserver's own builder, the code the API server
// runs for /openapi/v2, so the apply configurations' schema (and thus the fake clientset's
// field manager) sees the CRD exactly as a cluster serves it.
//
// Definitions are found by the REST-friendly names of Go types, so each kind of the CRD is
// renamed from the API server's name (com.azure.azureml.amlarc.v1alpha1.InstanceType) to
// that of its Go type in -type-package, which is what a scheme's type converter (the fake
// clientset's field manager) looks up at run time. The generator reads the types from
// -go-package, where they are aliased, and its Extract functions look them up by that
// name: each definition is there under both names.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/kube-openapi/pkg/util"
	"sigs.k8s.io/yaml"
)

func main() {
	crdPath := flag.String("crd", "", "path of the CustomResourceDefinition manifest")
	version := flag.String("version", "", "the served version to build the document of")
	goPackage := flag.String("go-package", "", "Go package path the generator reads the API types from")
	typePackage := flag.String("type-package", "", "Go package path where the API types are defined (default: -go-package)")
	flag.Parse()
	if *typePackage == "" {
		*typePackage = *goPackage
	}
	if err := run(*crdPath, *version, *goPackage, *typePackage); err != nil {
		fmt.Fprintln(os.Stderr, "crdopenapi:", err)
		os.Exit(1)
	}
}

func run(crdPath, version, goPackage, typePackage string) error {
	if crdPath == "" || version == "" || goPackage == "" {
		return fmt.Errorf("-crd, -version and -go-package are required")
	}
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return fmt.Errorf("%s: %w", crdPath, err)
	}
	swagger, err := builder.BuildOpenAPIV2(&crd, version, builder.Options{V2: true})
	if err != nil {
		return err
	}
	doc, err := json.Marshal(swagger)
	if err != nil {
		return err
	}
	// Rename by rewriting the document's text: a definition's name appears as its key and
	// in every $ref to it, and nowhere else.
	text := string(doc)
	group := crd.Spec.Group
	parts := strings.Split(group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	apiPrefix := strings.Join(parts, ".") + "." + version + "."
	kinds := []string{crd.Spec.Names.Kind, crd.Spec.Names.ListKind}
	for _, kind := range kinds {
		from := apiPrefix + kind
		to := util.ToRESTFriendlyName(typePackage + "." + kind)
		if !strings.Contains(text, `"`+from+`"`) {
			return fmt.Errorf("no definition %s in the document built for %s", from, crd.Name)
		}
		text = strings.ReplaceAll(text, `"`+from+`"`, `"`+to+`"`)
		text = strings.ReplaceAll(text, `"#/definitions/`+from+`"`, `"#/definitions/`+to+`"`)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return err
	}
	if goPackage != typePackage {
		defs := out["definitions"].(map[string]any)
		for _, kind := range kinds {
			real := util.ToRESTFriendlyName(typePackage + "." + kind)
			alias := map[string]any{}
			for k, v := range defs[real].(map[string]any) {
				alias[k] = v
			}
			// allOf the real one (which it is a copy of) makes the generator keep both.
			alias["allOf"] = []any{map[string]any{"$ref": "#/definitions/" + real}}
			defs[util.ToRESTFriendlyName(goPackage+"."+kind)] = alias
		}
	}
	pretty, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(pretty, '\n'))
	return err
}
