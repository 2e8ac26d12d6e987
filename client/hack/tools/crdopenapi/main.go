// Command crdopenapi prints the OpenAPI v2 document that kube-apiserver publishes for a
// CustomResourceDefinition, as applyconfiguration-gen's --openapi-schema wants it.
//
//	crdopenapi -crd manifests/crd/amlarc.azureml.com_instancetypes.yaml -version v1alpha1 \
//		-go-package github.com/amlarc-go/instancetypes/client/apis/amlarc/v1alpha1 > openapi.json
//
// The document is built by apiextensions-apiserver's own builder, the code the API server
// runs for /openapi/v2, so the apply configurations' schema (and thus the fake clientset's
// field manager) sees the CRD exactly as a cluster serves it. applyconfiguration-gen finds
// a type's definition under the REST-friendly name of its Go type, so each kind of the CRD
// is renamed from the API server's name (com.azure.azureml.amlarc.v1alpha1.InstanceType)
// to that of the Go type in -go-package, and references to it follow.
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
	goPackage := flag.String("go-package", "", "Go package path of the API types")
	flag.Parse()
	if err := run(*crdPath, *version, *goPackage); err != nil {
		fmt.Fprintln(os.Stderr, "crdopenapi:", err)
		os.Exit(1)
	}
}

func run(crdPath, version, goPackage string) error {
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
	for _, kind := range []string{crd.Spec.Names.Kind, crd.Spec.Names.ListKind} {
		from := apiPrefix + kind
		to := util.ToRESTFriendlyName(goPackage + "." + kind)
		if !strings.Contains(text, `"`+from+`"`) {
			return fmt.Errorf("no definition %s in the document built for %s", from, crd.Name)
		}
		text = strings.ReplaceAll(text, `"`+from+`"`, `"`+to+`"`)
		text = strings.ReplaceAll(text, `"#/definitions/`+from+`"`, `"#/definitions/`+to+`"`)
	}
	var out any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return err
	}
	pretty, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(pretty, '\n'))
	return err
}
