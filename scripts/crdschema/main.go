// Command crdschema writes strict JSON Schemas of InstanceType and InstanceTypeList, made
// from the CRD of the client module (its openAPIV3Schema), in the layout of the public
// CRDs-catalog: DIR/GROUP/KIND_VERSION.json, with the kind in lower case
// (amlarc.azureml.com/instancetype_v1alpha1.json, instancetypelist_v1alpha1.json), which
// kubeconform finds with -schema-location 'DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'
// and yaml-language-server with a "# yaml-language-server: $schema=" comment (docs/editors.md).
//
// Strict as the catalog's converter (openapi2jsonschema) makes them with
// DENY_ROOT_ADDITIONAL_PROPERTIES: every object schema that lists its properties, the root
// included, gets additionalProperties: false, unless it says otherwise or keeps unknown
// fields (x-kubernetes-preserve-unknown-fields); so an unknown or misspelled field is an
// error. Maps (nodeSelector, requests, limits) keep the schema of their values.
//
// The schemas of this repository, schemas/, are regenerated from the CRD with
//
//	go generate ./scripts/crdschema
//
// and a test fails when they are out of step with it.
package main

//go:generate go run . ../../client/manifests/crd/amlarc.azureml.com_instancetypes.yaml ../../schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// run writes the schemas of the CRD file crdPath under dir.
func run(crdPath, dir string) error {
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	files, err := schemas(data)
	if err != nil {
		return fmt.Errorf("%s: %v", crdPath, err)
	}
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// crd is the part of a CustomResourceDefinition the schemas are made of.
type crd struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind     string `json:"kind"`
			ListKind string `json:"listKind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Schema struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// schemas returns the schema files of a CRD, by their path under the output directory:
// one for the kind and one for its list, for each version with a schema.
func schemas(data []byte) (map[string][]byte, error) {
	var c crd
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	s := c.Spec
	if s.Group == "" || s.Names.Kind == "" || s.Names.ListKind == "" {
		return nil, fmt.Errorf("no spec.group, spec.names.kind or spec.names.listKind")
	}
	files := map[string][]byte{}
	for _, v := range s.Versions {
		item := v.Schema.OpenAPIV3Schema
		if item == nil {
			return nil, fmt.Errorf("version %q has no openAPIV3Schema", v.Name)
		}
		strict(item)
		list := map[string]any{
			"description": s.Names.ListKind + " is a list of " + s.Names.Kind + ", as kubectl get -o yaml prints it.",
			"type":        "object",
			"properties": map[string]any{
				"apiVersion": map[string]any{"type": "string"},
				"kind":       map[string]any{"type": "string"},
				"metadata":   map[string]any{"type": "object"},
				"items":      map[string]any{"type": "array", "items": item},
			},
			"required":             []any{"items"},
			"additionalProperties": false,
		}
		for kind, schema := range map[string]map[string]any{s.Names.Kind: item, s.Names.ListKind: list} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(schema); err != nil {
				return nil, err
			}
			files[s.Group+"/"+strings.ToLower(kind)+"_"+v.Name+".json"] = b.Bytes()
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no version")
	}
	return files, nil
}

// strict sets additionalProperties to false in schema and every schema within it that
// lists properties, has no additionalProperties and does not keep unknown fields. It goes
// into every keyword that holds schemas (properties' values, items, additionalProperties,
// allOf, anyOf, ...), and not into values (default, enum, example) nor CEL rules.
func strict(schema map[string]any) {
	if _, ok := schema["properties"].(map[string]any); ok {
		_, has := schema["additionalProperties"]
		if keep, _ := schema["x-kubernetes-preserve-unknown-fields"].(bool); !has && !keep {
			schema["additionalProperties"] = false
		}
	}
	for key, v := range schema {
		switch key {
		case "default", "enum", "example", "x-kubernetes-validations":
			continue
		}
		switch v := v.(type) {
		case map[string]any:
			if key == "properties" {
				for _, p := range v {
					if p, ok := p.(map[string]any); ok {
						strict(p)
					}
				}
				continue
			}
			strict(v)
		case []any:
			for _, e := range v {
				if e, ok := e.(map[string]any); ok {
					strict(e)
				}
			}
		}
	}
}
