package validate

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/amlarc-go/instancetypes/instancetype"
)

var objectNames = []string{
	"", "a", "A", "0", "-", ".", "a-b", "a.b", "a..b", "a.-b", "a-.b", "-a", "a-", ".a", "a.",
	"my-type", "My-Type", "my_type", "gpu.small-1", "a b", "gpü", "a/b",
	strings.Repeat("a", 253), strings.Repeat("a", 254), strings.Repeat("a.", 126) + "a",
	strings.Repeat("a", 64) + ".b",
}

// validObjectName agrees with apimachinery.
func TestValidObjectName(t *testing.T) {
	for _, s := range objectNames {
		if got, want := validObjectName(s), len(content.IsDNS1123Subdomain(s)) == 0; got != want {
			t.Errorf("validObjectName(%.20q) = %v; IsDNS1123Subdomain says %v", s, got, want)
		}
	}
}

func FuzzValidObjectName(f *testing.F) {
	for _, s := range objectNames {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validObjectName(s), len(content.IsDNS1123Subdomain(s)) == 0; got != want {
			t.Errorf("validObjectName(%q) = %v; IsDNS1123Subdomain says %v", s, got, want)
		}
	})
}

func TestSuggestObjectName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"My_Type", "my-type"},
		{"GPU Small", "gpu-small"},
		{"-gpu-", "gpu"},
		{"gpu", ""}, // already valid: nothing to suggest
		{"___", ""},
		{"a..b", "a.b"},
	} {
		if got := suggestObjectName(tc.in); got != tc.want {
			t.Errorf("suggestObjectName(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestSuggestResourceName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"cpus", "cpu"}, {"CPU", "cpu"}, {"Cpu", "cpu"}, {"cores", "cpu"}, {"vcpu", "cpu"}, {"cpux", "cpu"},
		{"mem", "memory"}, {"memroy", "memory"}, {"Memory", "memory"}, {"memori", "memory"}, {"ram", "memory"},
		{"gpu", "nvidia.com/gpu"}, {"GPUs", "nvidia.com/gpu"}, {"nvidia-gpu", "nvidia.com/gpu"}, {"gpus", "nvidia.com/gpu"},
		{"amd", "amd.com/gpu"},
		{"ephemeral-storage", ""}, {"storage", ""}, {"", ""}, {strings.Repeat("cpu", 100), ""},
	} {
		if got := suggestResourceName(tc.in); got != tc.want {
			t.Errorf("suggestResourceName(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// isExtendedResourceName is Kubernetes' own rule (k8s.io/kubernetes/pkg/apis/core/helper),
// restated with apimachinery: the slow, obviously right reference for classify.
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
	c := classify(instancetype.ResourceName(s))
	var want nameClass
	switch {
	case s == "cpu":
		want = classCPU
	case s == "memory":
		want = classMemory
	case isExtendedResourceName(s):
		want = classExtended
	case strings.Contains(s, "/"):
		want = classBadExtended
	default:
		want = classUnknown
	}
	if c != want {
		t.Errorf("classify(%.40q) = %v; want %v", s, c, want)
	}
}

func TestClip(t *testing.T) {
	if s := clip("short"); s != "short" {
		t.Errorf("clip(short) = %q", s)
	}
	long := strings.Repeat("é", 200) // 400 bytes, two per rune
	got := clip(long)
	if !strings.HasSuffix(got, "... (400 bytes)") || !strings.HasPrefix(got, strings.Repeat("é", 128)) {
		t.Errorf("clip(400 bytes) = %q", got)
	}
}
