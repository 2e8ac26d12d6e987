package validate_test

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// FuzzInstanceType builds an instance type from fuzzed strings and validates it: it must
// not panic, must give the same findings twice, must keep every finding below the root,
// and must not repeat a huge value.
func FuzzInstanceType(f *testing.F) {
	// The arguments: name, selector key and value, extra resource name and value, cpu
	// and memory requests, cpu and memory limits, extension selector key and value.
	//
	// The seed: valid.
	f.Add("myinstancetypename", "mylabel", "mylabelvalue", "nvidia.com/gpu", "1", "700m", "1500Mi", "1", "2Gi", "mylabel", "mylabelvalue")
	// Everything empty.
	f.Add("", "", "", "", "", "", "", "", "", "", "")
	// Everything wrong.
	f.Add("My_Type", "bad key", "bad value", "gpu", "0.5", "0", "-1Gi", "2Gx", "1e400", "mylabel", "other")
	// Requests above limits.
	f.Add("a", "a/b/c", "-", "nvidia.com/gpu", "-1", "2", "3Gi", "1", "2Gi", "", "")
	// Long name, odd quantities.
	f.Add(strings.Repeat("a", 300), "k", "v", "requests.nvidia.com/gpu", "1e3", "1m", "1", "1m", "1", "k", "v")
	// Reserved domain.
	f.Add("x.y", "kubernetes.io/os", "", "kubernetes.io/gpu", "1.0", "0.001", "1k", "1", "1Ki", "kubernetes.io/os", "")
	f.Fuzz(func(t *testing.T, name, key, value, res, resValue, cpuReq, memReq, cpuLim, memLim, extKey, extValue string) {
		it := &instancetype.InstanceType{}
		it.Name = name
		it.Spec.NodeSelector = map[string]string{key: value, "pool": value}
		it.Spec.Resources.Requests = instancetype.ResourceList{
			"cpu": instancetype.ParseAmount(cpuReq), "memory": instancetype.ParseAmount(memReq),
			instancetype.ResourceName(res + "2"): instancetype.ParseAmount(resValue),
		}
		it.Spec.Resources.Limits = instancetype.ResourceList{
			"cpu": instancetype.ParseAmount(cpuLim), "memory": instancetype.ParseAmount(memLim),
			instancetype.ResourceName(res): instancetype.ParseAmount(resValue),
		}
		root := field.NewPath("items").Index(3)
		for _, opts := range []resolve.Options{
			{},
			{NodeSelector: map[string]string{extKey: extValue, "zone": extValue}},
			{NodeSelector: map[string]string{extKey: extValue}, StrictSubset: true},
		} {
			first := validate.InstanceType(it, root, opts)
			again := validate.InstanceType(it.DeepCopy(), root, opts)
			if !slices.EqualFunc(first, again, func(a, b *field.Error) bool { return *a == *b }) {
				t.Fatalf("InstanceType is not deterministic:\n%v\n%v", first, again)
			}
			for _, e := range first {
				if !strings.HasPrefix(e.Field, "items[3].") {
					t.Errorf("finding %v is not below items[3]", e)
				}
				if s, ok := e.BadValue.(string); ok && len(s) > validate.MaxValueLen+32 {
					t.Errorf("finding at %s repeats %d bytes of its value", e.Field, len(s))
				}
			}
		}
	})
}
