// Package yamlout writes values as YAML the way kubectl writes objects (kubectl get -o
// yaml): through their JSON form, so JSON field names, omitempty and MarshalJSON hold,
// with keys sorted. It is the command's one writer of YAML (instancetype suggest), kept
// apart from the packages that read it.
package yamlout

import "sigs.k8s.io/yaml"

// Marshal returns v as YAML, as kubectl writes an object; v marshals as JSON does.
func Marshal(v any) ([]byte, error) {
	return yaml.Marshal(v)
}
