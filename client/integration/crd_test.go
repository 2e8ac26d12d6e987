package integration_test

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/source"
)

// TestCRDInstalled: the API server took the generated CRD (its own validation, CEL
// compilation and cost budget included) and serves it as established, structural and
// cluster-scoped.
func TestCRDInstalled(t *testing.T) {
	cfg := crdEnv.Start(t)
	cs, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crd, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(stepContext(t), "instancetypes.amlarc.azureml.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conds := map[apiextensionsv1.CustomResourceDefinitionConditionType]apiextensionsv1.ConditionStatus{}
	for _, c := range crd.Status.Conditions {
		conds[c.Type] = c.Status
		if c.Type == apiextensionsv1.NonStructuralSchema && c.Status == apiextensionsv1.ConditionTrue {
			t.Errorf("the CRD's schema is not structural: %s", c.Message)
		}
	}
	if conds[apiextensionsv1.Established] != apiextensionsv1.ConditionTrue || conds[apiextensionsv1.NamesAccepted] != apiextensionsv1.ConditionTrue {
		t.Errorf("CRD conditions %v; want Established and NamesAccepted", crd.Status.Conditions)
	}
	if crd.Spec.Scope != apiextensionsv1.ClusterScoped {
		t.Errorf("scope %s; want Cluster", crd.Spec.Scope)
	}
	if n := len(crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["resources"].XValidations); n != 2 {
		t.Errorf("the served CRD has %d rules on spec.resources; want 2 (requests <= limits, cpu and memory)", n)
	}
}

// instanceTypeDocs returns, for each InstanceType in fsys's manifests (list items one by
// one), its name and JSON as kubectl would send it.
func instanceTypeDocs(t *testing.T, fsys fs.FS) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		source.Scan(data, source.Options{}, func(d *source.Document) bool {
			kind, _, _, ok := decode.Recognise(d.Value)
			if !ok || kind == "" {
				return true
			}
			for _, item := range decode.Document(d, kind).InstanceTypes {
				it := item.Object.DeepCopy()
				it.APIVersion, it.Kind = "amlarc.azureml.com/v1alpha1", "InstanceType"
				raw, err := json.Marshal(it)
				if err != nil {
					t.Fatal(err)
				}
				out[p+":"+it.Name] = raw
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExamplesAccepted: every instance type of the source document's manifests is
// accepted (as a dry run, so that the cluster stays empty for the other tests).
func TestExamplesAccepted(t *testing.T) {
	cs := clientset(t, crdEnv.Start(t))
	docs := instanceTypeDocs(t, examples.Manifests)
	if len(docs) != 3 {
		t.Fatalf("%d instance types in examples.Manifests; want 3", len(docs))
	}
	for name, raw := range docs {
		if err := createRaw(stepContext(t), cs, raw, false); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}

// TestBrokenRefused: each instance type of examples/broken is refused, with the CEL
// rules' messages and the schema's pattern, each at its field.
func TestBrokenRefused(t *testing.T) {
	cs := clientset(t, crdEnv.Start(t))
	want := map[string][]string{ // name → substrings of the error, one per mistake
		"gpu-large": {
			"cpu]: Required value: cpu is required", // cpus, not cpu
			"spec.resources.limits: Invalid value: resource names are cpu, memory, or fully qualified extended resource names",
			"spec.resources.requests: Invalid value: requests may name cpu and memory only",
			"spec.resources.requests[memory]: Invalid value: the memory request must be less than or equal to the memory limit",
		},
		"Tiny_Type": {
			"metadata.name: Invalid value: \"Tiny_Type\"",
		},
	}
	docs := instanceTypeDocs(t, examples.Broken)
	if len(docs) != len(want) {
		t.Fatalf("%d instance types in examples.Broken; want %d", len(docs), len(want))
	}
	for key, raw := range docs {
		name := key[strings.LastIndexByte(key, ':')+1:]
		err := createRaw(stepContext(t), cs, raw, false)
		if err == nil {
			t.Errorf("%s accepted", key)
			continue
		}
		for _, w := range want[name] {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q\ndoes not say %q", key, err, w)
			}
		}
	}
}
