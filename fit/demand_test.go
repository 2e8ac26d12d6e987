package fit_test

import (
	"maps"
	"testing"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

func list(kv ...string) instancetype.ResourceList {
	l := instancetype.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "null" {
			l[instancetype.ResourceName(kv[i])] = instancetype.Amount{}
			continue
		}
		l[instancetype.ResourceName(kv[i])] = instancetype.ParseAmount(kv[i+1])
	}
	return l
}

func TestDemandOf(t *testing.T) {
	for _, tc := range []struct {
		name             string
		requests, limits instancetype.ResourceList
		want             map[instancetype.ResourceName]quantity.Quantity
	}{
		{
			name:     "the source document's instance type: cpu and memory requested, the GPU limit",
			requests: list("cpu", "700m", "memory", "1500Mi"),
			limits:   list("cpu", "1", "memory", "2Gi", "nvidia.com/gpu", "1"),
			want:     res("cpu", "700m", "memory", "1500Mi", "nvidia.com/gpu", "1"),
		},
		{
			name:     "a GPU limit of 0 or null asks for none",
			requests: list("cpu", "100m", "memory", "100Mi"),
			limits:   list("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "0", "amd.com/gpu", "null"),
			want:     res("cpu", "100m", "memory", "100Mi"),
		},
		{
			name:     "an unset request defaults to the limit, as in Kubernetes",
			requests: list("memory", "null"),
			limits:   list("cpu", "2", "memory", "4Gi"),
			want:     res("cpu", "2", "memory", "4Gi"),
		},
		{
			name:     "an invalid request is not replaced by the limit: it has a finding of its own",
			requests: list("cpu", "2Gx", "memory", ""),
			limits:   list("cpu", "2", "memory", "4Gi"),
			want:     nil,
		},
		{
			name:     "extended resources come from limits only",
			requests: list("cpu", "1", "nvidia.com/gpu", "4"),
			limits:   list("nvidia.com/gpu", "2", "example.com/fpga", "x"),
			want:     res("cpu", "1", "nvidia.com/gpu", "2"),
		},
		{
			name:     "zero and negative amounts ask for nothing",
			requests: list("cpu", "0", "memory", "-1Gi"),
			limits:   list("cpu", "2", "memory", "4Gi"),
			want:     nil,
		},
		{name: "nothing", want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sel("pool=ml")
			d := fit.DemandOf(s, tc.requests, tc.limits)
			if !maps.Equal(d.Requests, tc.want) || (d.Requests == nil) != (tc.want == nil) {
				t.Errorf("DemandOf(%v, %v).Requests = %v; want %v", tc.requests, tc.limits, d.Requests, tc.want)
			}
			if !maps.Equal(d.NodeSelector, s) {
				t.Errorf("DemandOf selector = %v; want %v", d.NodeSelector, s)
			}
		})
	}
}
