package yamlout

import (
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// An InstanceType is written with its JSON names, keys sorted, quantities as strings.
func TestMarshalInstanceType(t *testing.T) {
	it := instancetype.InstanceType{}
	it.APIVersion, it.Kind, it.Name = "amlarc.azureml.com/v1alpha1", "InstanceType", "cpu-small"
	it.Spec.NodeSelector = map[string]string{"pool": "cpu"}
	it.Spec.Resources.Requests = instancetype.ResourceList{instancetype.ResourceCPU: instancetype.MustParseAmount("500m")}
	got, err := Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: cpu-small
spec:
  nodeSelector:
    pool: cpu
  resources:
    requests:
      cpu: 500m
`
	if string(got) != want {
		t.Errorf("Marshal = %q; want %q", got, want)
	}
}
