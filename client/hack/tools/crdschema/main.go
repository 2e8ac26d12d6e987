// Command crdschema rewrites, in place, the parts of a CustomResourceDefinition's schema
// that controller-gen cannot write from kubebuilder markers, so that hack/update-codegen.sh
// generates the whole CRD and nobody edits it by hand:
//
//   - every value marked +kubebuilder:validation:XIntOrString with type string (the
//     markers of instancetype.Amount, a struct controller-gen cannot see as a quantity)
//     gets the form controller-gen writes for resource.Quantity: no type, and
//     anyOf: [{type: integer}, {type: string}] with x-kubernetes-int-or-string: true, so
//     that tools reading the schema (kubectl-validate, editors) accept integers there;
//
//   - -value-max-length PATH=N gives the values of the map at PATH (dotted property names
//     from the root, such as spec.nodeSelector) a maxLength of N, which markers can only
//     give the items of a list, not the values of a map[string]string.
//
//     crdschema -crd manifests/crd/amlarc.azureml.com_instancetypes.yaml -value-max-length spec.nodeSelector=63
//
// It fails when a PATH names no map of strings, so that a renamed field cannot be missed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

func main() {
	crdPath := flag.String("crd", "", "path of the CustomResourceDefinition manifest, rewritten in place")
	var maxLengths []string
	flag.Func("value-max-length", "`PATH=N`: the values of the map at PATH are at most N characters (repeatable)", func(s string) error {
		maxLengths = append(maxLengths, s)
		return nil
	})
	flag.Parse()
	if err := run(*crdPath, maxLengths); err != nil {
		fmt.Fprintln(os.Stderr, "crdschema:", err)
		os.Exit(1)
	}
}

func run(crdPath string, maxLengths []string) error {
	if crdPath == "" {
		return fmt.Errorf("-crd is required")
	}
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return fmt.Errorf("%s: %w", crdPath, err)
	}
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		root := v.Schema.OpenAPIV3Schema
		intOrString(root)
		for _, m := range maxLengths {
			if err := valueMaxLength(root, m); err != nil {
				return fmt.Errorf("version %s: %w", v.Name, err)
			}
		}
	}
	out, err := yaml.Marshal(&crd)
	if err != nil {
		return err
	}
	// Keep controller-gen's layout: a document marker first, no status.
	out = bytes.ReplaceAll(out, []byte("\nstatus:\n  acceptedNames:\n    kind: \"\"\n    plural: \"\"\n  conditions: null\n  storedVersions: null\n"), []byte("\n"))
	out = bytes.ReplaceAll(out, []byte("  creationTimestamp: null\n"), nil)
	return os.WriteFile(crdPath, append([]byte("---\n"), out...), 0o644)
}

// intOrString rewrites every int-or-string value of type string below s, s included, to
// the form controller-gen writes for resource.Quantity.
func intOrString(s *apiextensionsv1.JSONSchemaProps) {
	if s == nil {
		return
	}
	if s.XIntOrString && s.Type == "string" && len(s.AnyOf) == 0 {
		s.Type = ""
		s.AnyOf = []apiextensionsv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}
	}
	for k, p := range s.Properties {
		intOrString(&p)
		s.Properties[k] = p
	}
	if s.AdditionalProperties != nil {
		intOrString(s.AdditionalProperties.Schema)
	}
	if s.Items != nil {
		intOrString(s.Items.Schema)
	}
}

// valueMaxLength applies a -value-max-length flag, PATH=N, below root.
func valueMaxLength(root *apiextensionsv1.JSONSchemaProps, flagValue string) error {
	path, n, ok := strings.Cut(flagValue, "=")
	limit, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || limit < 0 {
		return fmt.Errorf("-value-max-length %q: want PATH=N", flagValue)
	}
	if err := setValueMaxLength(root, strings.Split(path, "."), limit); err != nil {
		return fmt.Errorf("-value-max-length %q: %w", flagValue, err)
	}
	return nil
}

// setValueMaxLength sets the maxLength of the values of the map of strings at path below
// s. Properties are held by value, so each level is written back.
func setValueMaxLength(s *apiextensionsv1.JSONSchemaProps, path []string, limit int64) error {
	if len(path) == 0 {
		if s.Type != "object" || s.AdditionalProperties == nil || s.AdditionalProperties.Schema == nil || s.AdditionalProperties.Schema.Type != "string" {
			return fmt.Errorf("not a map of strings")
		}
		s.AdditionalProperties.Schema.MaxLength = &limit
		return nil
	}
	p, ok := s.Properties[path[0]]
	if !ok {
		return fmt.Errorf("the schema has no property %s", path[0])
	}
	if err := setValueMaxLength(&p, path[1:], limit); err != nil {
		return err
	}
	s.Properties[path[0]] = p
	return nil
}
