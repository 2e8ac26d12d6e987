package validate

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
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

var generateNames = append(slices.Clone(objectNames), "a-", "-", "--", "a--", "ab-", "a.-", "a.b-", "A-", ".-",
	strings.Repeat("a", 253)+"-", strings.Repeat("a", 254)+"-", strings.Repeat("a", 255)+"-")

// validGenerateName agrees with apimachinery's NameIsDNSSubdomain for a prefix.
func TestValidGenerateName(t *testing.T) {
	for _, s := range generateNames {
		if got, want := validGenerateName(s), len(apivalidation.NameIsDNSSubdomain(s, true)) == 0; got != want {
			t.Errorf("validGenerateName(%.20q) = %v; NameIsDNSSubdomain(prefix) says %v", s, got, want)
		}
	}
}

func FuzzValidGenerateName(f *testing.F) {
	for _, s := range generateNames {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validGenerateName(s), len(apivalidation.NameIsDNSSubdomain(s, true)) == 0; got != want {
			t.Errorf("validGenerateName(%q) = %v; NameIsDNSSubdomain(prefix) says %v", s, got, want)
		}
	})
}
