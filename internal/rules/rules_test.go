package rules

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// isExtendedResourceName is Kubernetes' own rule (k8s.io/kubernetes/pkg/apis/core/helper),
// restated with apimachinery: the slow, obviously right reference for Classify.
func isExtendedResourceName(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(content.IsLabelKey(name)) == 0 && len(content.IsLabelKey("requests."+name)) == 0
}

var resourceNames = []string{
	"cpu", "memory", "nvidia.com/gpu", "amd.com/gpu", "example/fpga", "gpu", "CPU", "",
	"/gpu", "nvidia.com/", "a/b/c", "Nvidia.com/gpu", "nvidia.com/GPU", "kubernetes.io/x",
	"node.kubernetes.io/x", "requests.nvidia.com/gpu", "hugepages-2Mi", "nvidia.com/gpu.shared",
	strings.Repeat("a", 244) + "/x", strings.Repeat("a", 245) + "/x", "a/" + strings.Repeat("b", 64),
}

func TestClassify(t *testing.T) {
	for _, s := range resourceNames {
		checkClassify(t, s)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range resourceNames {
		f.Add(s)
	}
	f.Fuzz(checkClassify)
}

func checkClassify(t *testing.T, s string) {
	c := Classify(instancetype.ResourceName(s))
	var want Class
	switch {
	case s == "cpu":
		want = CPU
	case s == "memory":
		want = Memory
	case isExtendedResourceName(s):
		want = Extended
	case strings.Contains(s, "/"):
		want = BadExtended
	default:
		want = Unknown
	}
	if c != want {
		t.Errorf("Classify(%.40q) = %v; want %v", s, c, want)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   instancetype.ResourceName
		amount instancetype.Amount
		want   Problem
	}{
		{"cpu", instancetype.MustParseAmount("1"), None},
		{"memory", instancetype.MustParseAmount("2Gi"), None},
		{"nvidia.com/gpu", instancetype.MustParseAmount("0"), None},
		{"nvidia.com/gpu", instancetype.MustParseAmount("2"), None},
		{"cpus", instancetype.MustParseAmount("1"), UnknownName},
		{"Nvidia.com/gpu", instancetype.MustParseAmount("1"), BadName},
		{"cpu", instancetype.Amount{}, Unset},
		{"nvidia.com/gpu", instancetype.Amount{}, Unset},
		{"cpu", instancetype.ParseAmount(""), Invalid},
		{"memory", instancetype.ParseAmount("2Gx"), Invalid},
		{"memory", instancetype.AmountFromString(" 2Gi"), Spaced},
		{"cpu", instancetype.AmountFromString("1\n"), Spaced},
		{"cpu", instancetype.MustParseAmount("0"), NotPositive},
		{"memory", instancetype.MustParseAmount("-1"), NotPositive},
		{"nvidia.com/gpu", instancetype.MustParseAmount("-1"), Negative},
		{"nvidia.com/gpu", instancetype.MustParseAmount("1.5"), Fractional},
		{"nvidia.com/gpu", instancetype.MustParseAmount("500m"), Fractional},
	} {
		if got := Check(tc.name, tc.amount); got != tc.want {
			t.Errorf("Check(%q, %q) = %v; want %v", tc.name, tc.amount.String(), got, tc.want)
		}
		if got := Usable(tc.name, tc.amount); got != (tc.want == None) {
			t.Errorf("Usable(%q, %q) = %v; want %v", tc.name, tc.amount.String(), got, tc.want == None)
		}
	}
}

func TestIsVMSize(t *testing.T) {
	for s, want := range map[string]bool{
		"Standard_DS3_v2": true, "standard_f2s_v2": true, "Basic_A1": true, "Standard_": false,
		"cpusmall": false, "gpu-a100": false, "StandardDS3": false, "": false,
	} {
		if got := IsVMSize(s); got != want {
			t.Errorf("IsVMSize(%q) = %v; want %v", s, got, want)
		}
	}
}
