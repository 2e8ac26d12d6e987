// Command crdschema writes the JSON schemas kubeconform validates InstanceTypes with, made
// from the CRD of the client module (its openAPIV3Schema): instancetype_v1alpha1.json, and
// instancetypelist_v1alpha1.json for a list of them, into DIR, named as kubeconform's
// -schema-location template {{.ResourceKind}}_{{.ResourceAPIVersion}}.json looks for them.
// For scripts/kubeconform.sh:
//
//	go run ./scripts/crdschema client/manifests/crd/amlarc.azureml.com_instancetypes.yaml DIR
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: crdschema CRD.yaml DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "crdschema:", err)
		os.Exit(1)
	}
}

func run(crdPath, dir string) error {
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string `json:"name"`
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(data, &crd); err != nil {
		return fmt.Errorf("%s: %v", crdPath, err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Schema.OpenAPIV3Schema == nil {
		return fmt.Errorf("%s: want one version with an openAPIV3Schema", crdPath)
	}
	v := crd.Spec.Versions[0]
	item := v.Schema.OpenAPIV3Schema
	list := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string"},
			"kind":       map[string]any{"type": "string"},
			"metadata":   map[string]any{"type": "object"},
			"items":      map[string]any{"type": "array", "items": item},
		},
		"required": []string{"items"},
	}
	for name, schema := range map[string]any{"instancetype_" + v.Name + ".json": item, "instancetypelist_" + v.Name + ".json": list} {
		out, err := json.MarshalIndent(schema, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
