package rules

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"pgregory.net/rapid"
)

var placeholderTests = []struct {
	in   string
	want PlaceholderKind
}{
	{"gpu-small", NoPlaceholder},
	{"", NoPlaceholder},
	{"Standard_DS3_v2", NoPlaceholder},
	{"$", NoPlaceholder},                  // a lone dollar
	{"cost$", NoPlaceholder},              // at the end
	{"a$1", NoPlaceholder},                // $1 is a positional parameter, not a name: left alone
	{"${}", NoPlaceholder},                // nothing named
	{"${1}", NoPlaceholder},               // not a name
	{"a<b", NoPlaceholder},                // a lone <
	{"<>", NoPlaceholder},                 // nothing inside
	{"a>b<c", NoPlaceholder},              // > before <
	{"{{", NoPlaceholder},                 // not closed
	{"${{parent.inputs.x", NoPlaceholder}, // not closed, and { is no name
	{"<instance type name>", AngleBrackets},
	{"<INSTANCE_TYPE>", AngleBrackets},
	{"azureml:<compute-name>", AngleBrackets},
	{"$INSTANCE_TYPE", ShellVariable},
	{"${INSTANCE_TYPE}", ShellVariable},
	{"${INSTANCE_TYPE:-cpu-small}", ShellVariable},
	{"gpu-$SIZE", ShellVariable},
	{"$$ $x", ShellVariable}, // the second $ names x
	{"azureml:${COMPUTE}", ShellVariable},
	{"${_x}", ShellVariable},
	{"${{parent.inputs.instance_type}}", Expression},
	{"${{ parent.inputs.compute }}", Expression},
	{"gpu-${{parent.inputs.size}}", Expression},
	{"{{ .Values.instanceType }}", TemplateAction},
	{"{{instance_type}}", TemplateAction},
	{"<{{x}}>", TemplateAction}, // the template's action is told first
	{"${X}<y>", ShellVariable},
}

func TestPlaceholder(t *testing.T) {
	for _, tt := range placeholderTests {
		if got := PlaceholderOf(tt.in); got != tt.want {
			t.Errorf("PlaceholderOf(%q) = %v; want %v", tt.in, got, tt.want)
		}
	}
}

// TestPlaceholderNeverAnObjectName: no name a cluster can hold is told a placeholder, so a
// placeholder finding never stands where a real name is written.
func TestPlaceholderNeverAnObjectName(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[-a-z0-9.${}<>_A-Z ]{0,20}`).Draw(t, "s")
		if IsObjectName(s) && PlaceholderOf(s) != NoPlaceholder {
			t.Fatalf("%q is an object name and PlaceholderOf says %v", s, PlaceholderOf(s))
		}
	})
}

// TestIsObjectName: IsObjectName agrees with apimachinery's IsDNS1123Subdomain.
func TestIsObjectName(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[-a-zA-Z0-9._]{0,12}`).Draw(t, "s")
		if rapid.IntRange(0, 20).Draw(t, "long") == 0 {
			s += rapid.StringMatching(`[a-z]{240,260}`).Draw(t, "tail")
		}
		if got, want := IsObjectName(s), len(content.IsDNS1123Subdomain(s)) == 0; got != want {
			t.Fatalf("IsObjectName(%.30q) = %v; IsDNS1123Subdomain says %v", s, got, want)
		}
	})
}

func TestPlaceholderAllocs(t *testing.T) {
	in := "${{parent.inputs.instance_type}} $X <a> {{b}}"
	if n := testing.AllocsPerRun(100, func() { placeholderSink = PlaceholderOf(in) }); n != 0 {
		t.Errorf("PlaceholderOf allocates %v times; want 0", n)
	}
}

var placeholderSink PlaceholderKind
