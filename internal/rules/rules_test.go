package rules

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"k8s.io/apimachinery/pkg/api/validate/content"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
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

func TestCheckInstanceType(t *testing.T) {
	at64 := "1." + strings.Repeat("0", MaxAmountLen-2)
	for _, tc := range []struct {
		name   instancetype.ResourceName
		amount instancetype.Amount
		want   Problem
	}{
		{"cpu", instancetype.MustParseAmount("1"), None},
		{"cpus", instancetype.ParseAmount(at64 + "0"), UnknownName},
		{"Nvidia.com/gpu", instancetype.ParseAmount("2e+0009"), BadName},
		{"cpu", instancetype.Amount{}, Unset},
		{"cpu", instancetype.MustParseAmount(at64), None},
		{"cpu", instancetype.MustParseAmount(at64 + "0"), TooLong},
		{"memory", instancetype.ParseAmount(strings.Repeat("x", MaxAmountLen+1)), TooLong},
		{"memory", instancetype.AmountFromString(" " + at64), TooLong},
		{"memory", instancetype.MustParseAmount("2e+009"), None},
		{"memory", instancetype.MustParseAmount("2e009"), None},
		{"memory", instancetype.MustParseAmount("2e+0009"), LongExponent},
		{"memory", instancetype.MustParseAmount("2E0009"), LongExponent},
		{"nvidia.com/gpu", instancetype.MustParseAmount("1e-0000"), LongExponent},
		{"memory", instancetype.ParseAmount("1e3061300070"), LongExponent},
		{"memory", instancetype.MustParseAmount("2E"), None},
		{"memory", instancetype.ParseAmount("2e"), Invalid},
		{"memory", instancetype.ParseAmount("2Gx"), Invalid},
		{"memory", instancetype.AmountFromString(" 2Gi"), Spaced},
		{"cpu", instancetype.MustParseAmount("0"), NotPositive},
		{"nvidia.com/gpu", instancetype.MustParseAmount("1.5"), Fractional},
		{"memory", instancetype.MustParseAmount("9007199254740991.9990234375Ki"), BinaryAtCap},
		{"memory", instancetype.ParseAmount("9007199254740991.99902343749Ki"), Invalid}, // more digits than an int64 holds
		{"memory", instancetype.MustParseAmount("9007199254740990Ki"), None},
		{"memory", instancetype.MustParseAmount("9223372036854775807e0"), None},
		{"memory", instancetype.MustParseAmount("9223372036854775807"), None},
		{"memory", instancetype.ParseAmount("8Ei"), Invalid},
		{"nvidia.com/gpu", instancetype.MustParseAmount("9007199254740991.9990234375Ki"), BinaryAtCap},
	} {
		if got := CheckInstanceType(tc.name, tc.amount); got != tc.want {
			t.Errorf("CheckInstanceType(%q, %q) = %v; want %v", tc.name, tc.amount.String(), got, tc.want)
		}
		if got := UsableInInstanceType(tc.name, tc.amount); got != (tc.want == None) {
			t.Errorf("UsableInInstanceType(%q, %q) = %v; want %v", tc.name, tc.amount.String(), got, tc.want == None)
		}
	}
}

// crdMarker returns the value of the kubebuilder marker name on instancetype.Amount, from
// which controller-gen writes the CRD's schema of resource values.
func crdMarker(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile("../../instancetype/amount.go")
	if err != nil {
		t.Fatal(err)
	}
	prefix := "// +kubebuilder:validation:" + name + "="
	for line := range strings.Lines(string(src)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			return strings.Trim(v, "`")
		}
	}
	t.Fatalf("instancetype/amount.go has no marker %s", name)
	return ""
}

// TestCRDBounds holds MaxAmountLen and ExponentDigits to the CRD's markers: the
// maxLength, and the pattern, which refuses a quantity exactly when its exponent has
// more than MaxExponentDigits digits.
func TestCRDBounds(t *testing.T) {
	if got := crdMarker(t, "MaxLength"); got != strconv.Itoa(MaxAmountLen) {
		t.Errorf("the CRD's maxLength is %s; MaxAmountLen is %d", got, MaxAmountLen)
	}
	pattern := regexp.MustCompile(crdMarker(t, "Pattern"))
	// disagree returns why s breaks the promise, "" when it keeps it.
	disagree := func(s string) string {
		if _, err := quantity.Parse(s); err != nil && ExponentDigits(s) <= MaxExponentDigits {
			return "" // not a quantity: validation says so, whatever the pattern says
		}
		if got, want := ExponentDigits(s) <= MaxExponentDigits, pattern.MatchString(s); got != want {
			return fmt.Sprintf("%q: ExponentDigits %d, the CRD's pattern matches: %v", s, ExponentDigits(s), want)
		}
		return ""
	}
	for _, s := range []string{"1", "2e9", "2e+009", "2e+0009", "1E", "1E3", "1e-999", "1e-1000", "+.5e0001", "1Ki", "e3"} {
		if d := disagree(s); d != "" {
			t.Error(d)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[+-]?[0-9]{0,3}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,6}|[numkMGTPE]|[KMGTPE]i)?`).Draw(t, "quantity")
		if d := disagree(s); d != "" {
			t.Fatal(d)
		}
	})
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
