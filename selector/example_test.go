package selector_test

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/selector"
)

func ExampleMerge() {
	extension := map[string]string{"kubernetes.io/os": "linux"}
	instanceType := map[string]string{"pool": "ml", "kubernetes.io/os": "linux"}

	effective, err := selector.Merge(extension, instanceType)
	fmt.Println(effective, err)
	// Output: map[kubernetes.io/os:linux pool:ml] <nil>
}

func ExampleMerge_conflict() {
	extension := map[string]string{"pool": "ml", "zone": "1"}
	instanceType := map[string]string{"pool": "cpu", "zone": "2", "gpu": "a100"}

	_, err := selector.Merge(extension, instanceType)
	fmt.Println(err)

	var ce *selector.ConflictError
	if errors.As(err, &ce) {
		for _, c := range ce.Conflicts {
			fmt.Printf("%s: %q vs %q\n", c.Key, c.A, c.B)
		}
	}
	// Output:
	// selector: key "pool" has conflicting values "ml" and "cpu"; key "zone" has conflicting values "1" and "2"
	// pool: "ml" vs "cpu"
	// zone: "1" vs "2"
}

func ExampleIsSubset() {
	extension := map[string]string{"pool": "ml", "kubernetes.io/os": "linux"}

	fmt.Println(selector.IsSubset(map[string]string{"pool": "ml"}, extension))
	fmt.Println(selector.IsSubset(map[string]string{"pool": "ml", "gpu": "a100"}, extension))
	fmt.Println(selector.IsSubset(nil, extension))
	// Output:
	// true
	// false
	// true
}

func ExampleMatches() {
	node := map[string]string{"kubernetes.io/os": "linux", "pool": "ml", "zone": "1"}

	fmt.Println(selector.Matches(map[string]string{"pool": "ml"}, node))
	fmt.Println(selector.Matches(map[string]string{"pool": "cpu"}, node))
	fmt.Println(selector.Matches(nil, node))
	// Output:
	// true
	// false
	// true
}

func ExampleValidateLabels() {
	nodeSelector := map[string]string{
		"pool":             "ml",
		"my label":         "x",
		"kubernetes.io/os": "-linux",
	}
	for _, err := range selector.ValidateLabels(nodeSelector, field.NewPath("spec", "nodeSelector")) {
		fmt.Printf("%s: %s %q\n", err.Field, err.Type, err.BadValue)
	}
	// Output:
	// spec.nodeSelector[kubernetes.io/os]: Invalid value "-linux"
	// spec.nodeSelector[my label]: Invalid value "my label"
}

func ExampleValidLabelKey() {
	for _, k := range []string{"pool", "nvidia.com/gpu", "Example.com/gpu", "a/b/c"} {
		fmt.Println(k, selector.ValidLabelKey(k))
	}
	// Output:
	// pool true
	// nvidia.com/gpu true
	// Example.com/gpu false
	// a/b/c false
}

func ExampleLabelSelector() {
	s, err := selector.LabelSelector(map[string]string{"pool": "ml", "kubernetes.io/os": "linux"})
	fmt.Println(s, err)

	_, err = selector.LabelSelector(map[string]string{"pool": "a b"})
	fmt.Println(err != nil)
	// Output:
	// kubernetes.io/os=linux,pool=ml <nil>
	// true
}
