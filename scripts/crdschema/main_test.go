package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const crdFile = "../../client/manifests/crd/amlarc.azureml.com_instancetypes.yaml"

// TestSchemasInStep: the schemas of schemas/ are what the generator makes of the CRD of
// the client module, and nothing else is there; if not, go generate ./scripts/crdschema.
func TestSchemasInStep(t *testing.T) {
	data, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	want, err := schemas(data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	err = filepath.WalkDir("../../schemas", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../../schemas", path)
		got[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 2 {
		t.Errorf("%d schemas; want InstanceType's and InstanceTypeList's", len(want))
	}
	for name, w := range want {
		if !bytes.Equal(got[name], w) {
			t.Errorf("schemas/%s is out of step with the CRD: run go generate ./scripts/crdschema", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("schemas/%s is not made from the CRD", name)
		}
	}
}

// TestStrict: additionalProperties false wherever an object lists its properties, in every
// keyword that holds schemas, and nowhere else.
func TestStrict(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"object", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`},
		{"nested in properties, items and anyOf",
			`{"properties":{"a":{"properties":{"b":{}}},"l":{"items":{"properties":{"c":{}}}},"u":{"anyOf":[{"properties":{"d":{}}}]}}}`,
			`{"additionalProperties":false,"properties":{"a":{"additionalProperties":false,"properties":{"b":{}}},"l":{"items":{"additionalProperties":false,"properties":{"c":{}}}},"u":{"anyOf":[{"additionalProperties":false,"properties":{"d":{}}}]}}}`},
		{"a field named properties",
			`{"properties":{"properties":{"type":"string"}}}`,
			`{"additionalProperties":false,"properties":{"properties":{"type":"string"}}}`},
		{"a map keeps its values' schema",
			`{"type":"object","additionalProperties":{"properties":{"x":{}}}}`,
			`{"type":"object","additionalProperties":{"additionalProperties":false,"properties":{"x":{}}}}`},
		{"additionalProperties already said",
			`{"properties":{"a":{}},"additionalProperties":true}`,
			`{"properties":{"a":{}},"additionalProperties":true}`},
		{"unknown fields kept",
			`{"properties":{"a":{}},"x-kubernetes-preserve-unknown-fields":true}`,
			`{"properties":{"a":{}},"x-kubernetes-preserve-unknown-fields":true}`},
		{"no properties: an open object", `{"type":"object"}`, `{"type":"object"}`},
		{"values are not schemas",
			`{"default":{"properties":{}},"enum":[{"properties":{}}],"x-kubernetes-validations":[{"rule":"true","properties":{}}]}`,
			`{"default":{"properties":{}},"enum":[{"properties":{}}],"x-kubernetes-validations":[{"rule":"true","properties":{}}]}`},
	} {
		var in, want map[string]any
		if err := json.Unmarshal([]byte(tt.in), &in); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
			t.Fatal(err)
		}
		strict(in)
		if !reflect.DeepEqual(in, want) {
			got, _ := json.Marshal(in)
			t.Errorf("%s: got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestSchemasRefuse: a CRD the schemas cannot be made of is an error, not a file.
func TestSchemasRefuse(t *testing.T) {
	for _, in := range []string{
		"spec: [",
		"spec: {names: {kind: A, listKind: AList}, versions: [{name: v1, schema: {openAPIV3Schema: {type: object}}}]}",
		"spec: {group: g, names: {kind: A}, versions: [{name: v1, schema: {openAPIV3Schema: {type: object}}}]}",
		"spec: {group: g, names: {kind: A, listKind: AList}, versions: [{name: v1}]}",
		"spec: {group: g, names: {kind: A, listKind: AList}}",
	} {
		if files, err := schemas([]byte(in)); err == nil {
			t.Errorf("%s: no error, %d files", in, len(files))
		}
	}
}

// TestKubeconform: kubeconform, given the schemas with -schema-location and no -strict,
// accepts the examples' instance types and refuses an unknown field anywhere in one. It
// runs the kubeconform of $INSTANCETYPES_KUBECONFORM, or of PATH; .ci/run installs v0.8.0
// and sets the variable, and with it set a missing binary is a failure.
func TestKubeconform(t *testing.T) {
	bin := os.Getenv("INSTANCETYPES_KUBECONFORM")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("kubeconform"); err != nil {
			t.Skip("no kubeconform: set INSTANCETYPES_KUBECONFORM to one (.ci/run does)")
		}
	}
	location := filepath.Join("..", "..", "schemas") + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
	type result struct {
		Resources []struct{ Filename, Kind, Name, Status, Msg string }
		Summary   struct{ Valid, Invalid, Errors, Skipped int }
	}
	kubeconform := func(files ...string) result {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-summary", "-output", "json", "-schema-location", location}, files...)...)
		out, err := cmd.Output()
		var r result
		if jerr := json.Unmarshal(out, &r); jerr != nil {
			t.Fatalf("%v, %v: %s", err, jerr, out)
		}
		return r
	}
	examples := []string{
		"../../examples/manifests/my_instance_type.yaml",
		"../../examples/manifests/my_instance_type_list.yaml",
		"../../examples/cluster/instancetypes.yaml", // kubectl get -o yaml: a List
	}
	if r := kubeconform(examples...); r.Summary.Valid < len(examples) || r.Summary.Invalid+r.Summary.Errors+r.Summary.Skipped != 0 {
		t.Errorf("the examples: %+v", r)
	}
	dir := t.TempDir()
	good := `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
spec:
  nodeSelector:
    pool: a
  resources:
    requests: {cpu: 500m, memory: 1Gi}
    limits: {cpu: "1", memory: 2Gi, nvidia.com/gpu: 1}
`
	for _, tt := range []struct{ name, doc, field string }{
		{"top", good + "status: {}\n", "status"},
		{"spec", strings.Replace(good, "spec:\n", "spec:\n  nodeSelectr: {}\n", 1), "nodeSelectr"},
		{"resources", strings.Replace(good, "  resources:\n", "  resources:\n    limit: {}\n", 1), "limit"},
		{"list", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitem: []\nitems:\n- " +
			strings.ReplaceAll(strings.TrimSuffix(good, "\n"), "\n", "\n  ") + "\n", "item"},
	} {
		file := filepath.Join(dir, tt.name+".yaml")
		if err := os.WriteFile(file, []byte(tt.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		r := kubeconform(file)
		if r.Summary.Invalid != 1 || len(r.Resources) != 1 || !strings.Contains(r.Resources[0].Msg, "'"+tt.field+"'") {
			t.Errorf("%s: %+v", tt.name, r)
		}
	}
	file := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(file, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := kubeconform(file); r.Summary.Valid != 1 || r.Summary.Invalid != 0 {
		t.Errorf("the document the others change: %+v", r)
	}
}
