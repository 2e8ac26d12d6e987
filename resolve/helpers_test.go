package resolve

import (
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// rl builds a resource list from name, text pairs; the text "<null>" stands for an unset
// amount and any other text is parsed (invalid text gives an invalid amount).
func rl(kv ...string) instancetype.ResourceList {
	l := make(instancetype.ResourceList, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "<null>" {
			l[instancetype.ResourceName(kv[i])] = instancetype.Amount{}
			continue
		}
		l[instancetype.ResourceName(kv[i])] = instancetype.ParseAmount(kv[i+1])
	}
	return l
}

// sel builds a selector from key, value pairs.
func sel(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// newType returns an instance type.
func newType(name string, nodeSelector map[string]string, requests, limits instancetype.ResourceList) *instancetype.InstanceType {
	return &instancetype.InstanceType{
		TypeMeta:   metav1.TypeMeta{APIVersion: instancetype.APIVersion, Kind: instancetype.Kind},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: instancetype.InstanceTypeSpec{
			NodeSelector: nodeSelector,
			Resources:    instancetype.ResourceRequirements{Requests: requests, Limits: limits},
		},
	}
}

// The instance types of examples/my_instance_type_list.yaml and
// examples/my_instance_type.yaml, plus a GPU type with a selector.
func cpuSmall() *instancetype.InstanceType {
	return newType("cpusmall", nil,
		rl("cpu", "100m", "memory", "100Mi"),
		rl("cpu", "1", "nvidia.com/gpu", "0", "memory", "1Gi"))
}

func customDefault() *instancetype.InstanceType {
	return newType(instancetype.DefaultName, nil,
		rl("cpu", "1", "memory", "1Gi"),
		rl("cpu", "1", "nvidia.com/gpu", "0", "memory", "1Gi"))
}

func myInstanceType() *instancetype.InstanceType {
	return newType("myinstancetypename", sel("mylabel", "mylabelvalue"),
		rl("cpu", "700m", "memory", "1500Mi"),
		rl("cpu", "1", "nvidia.com/gpu", "1", "memory", "2Gi"))
}

func gpuType() *instancetype.InstanceType {
	return newType("gpu", sel("pool", "gpu", "accelerator", "nvidia"),
		rl("cpu", "4", "memory", "16Gi"),
		rl("cpu", "8", "nvidia.com/gpu", "2", "memory", "32Gi"))
}

// texts renders a resource list as name=text pairs in name order, for messages and
// comparisons.
func listText(l instancetype.ResourceList) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(l)) {
		parts = append(parts, string(name)+"="+l[name].String())
	}
	return strings.Join(parts, ",")
}

// errText renders errors as "Type Field" lines, which tests compare; messages are not
// part of the contract.
func errText(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}
