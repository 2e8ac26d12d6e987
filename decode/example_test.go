package decode_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/source"
)

// Document decodes what kubectl reads of a document, strictly: an unknown field, a value
// of the wrong type and a key set twice are findings at their paths, each placed by the
// document; the values are kubectl's.
func ExampleDocument() {
	data := []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: gpu
spec:
  nodeselector: {pool: gpu}
  resources:
    requests: {cpu: "1", memory: 4Gi}
    limits: {cpu: 010, memory: 4Gi, memory: 8Gi}
`)
	source.Scan(data, source.Options{}, func(d *source.Document) bool {
		kind, _, _, ok := decode.Recognise(d.Value)
		if !ok {
			return true
		}
		r := decode.Document(d, kind)
		for _, it := range r.InstanceTypes {
			fmt.Println(it.Object.Name, it.Object.Spec.Resources.Limits)
			for _, e := range it.Errors {
				at, ok := r.At[e]
				if !ok {
					at = d.PositionOf(e.Field)
				}
				fmt.Printf("line %d: %s\n", at.Line, e)
			}
		}
		return true
	})
	// Output:
	// gpu map[cpu:8 memory:8Gi]
	// line 6: spec.nodeselector: Forbidden: unknown field "nodeselector"; did you mean "nodeSelector"?
	// line 9: spec.resources.limits[memory]: Duplicate value: "memory": key set twice in this mapping, first on line 9; the last one is in effect
}
