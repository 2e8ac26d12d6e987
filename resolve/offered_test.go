package resolve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/workload"
)

// TestSuggestionsAreOfferedNames: for any catalog, names that can be an InstanceType's and
// names that cannot (Tiny_Type, gpu_a100, GPU-A100), and any name it lacks, every name
// the error suggests or lists is a name of the catalog with a valid form, and the
// suggestions are the nearest of those names, as a pass over them finds them.
func TestSuggestionsAreOfferedNames(t *testing.T) {
	part := rapid.SampledFrom([]string{"gpu", "cpu", "-", "a100", "a10", "small", "_", "T", "O", "0", ".", "s"})
	nameGen := rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(part, 1, 5).Draw(t, "parts"), "")
	})
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfN(nameGen, 0, 30).Draw(t, "names")
		var types []*instancetype.InstanceType
		for _, n := range names {
			types = append(types, newType(n, nil, nil, nil))
		}
		c := NewCatalog(types...)
		var valid []string
		for _, n := range c.Names() {
			if rules.IsObjectName(n) {
				valid = append(valid, n)
			}
		}
		miss := nameGen.Draw(t, "miss")
		if len(names) > 0 && rapid.Bool().Draw(t, "near") {
			// A name of the catalog with one byte changed: upper case, O for 0, _ for -.
			b := []byte(names[rapid.IntRange(0, len(names)-1).Draw(t, "of")])
			i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
			b[i] = rapid.SampledFrom([]byte("OA_-x0")).Draw(t, "to")
			miss = string(b)
		}
		if _, ok := c.Get(miss); ok {
			return
		}
		_, err := c.Lookup(miss)
		nf, ok := err.(*NotFoundError)
		if !ok {
			t.Fatalf("Lookup(%q) = %v; want a *NotFoundError", miss, err)
		}
		for _, s := range slices.Concat(nf.Suggestions, nf.Available) {
			if !slices.Contains(c.Names(), s) || !rules.IsObjectName(s) {
				t.Fatalf("Lookup(%q) offers %q: not a valid name of the catalog %q", miss, s, c.Names())
			}
		}
		if fmt.Sprint(nf.Available) != fmt.Sprint(valid) {
			t.Fatalf("Lookup(%q).Available = %q; want the valid names %q", miss, nf.Available, valid)
		}
		if want := naiveSuggest(miss, valid); fmt.Sprint(nf.Suggestions) != fmt.Sprint(want) {
			t.Fatalf("Lookup(%q).Suggestions = %q; the nearest valid names are %q", miss, nf.Suggestions, want)
		}
		// Resolve's error says the same.
		_, errs := c.Resolve(&workload.Workload{Kind: workload.OnlineDeployment, InstanceType: miss}, nil, Options{})
		if rules.PlaceholderOf(miss) == rules.NoPlaceholder && (len(errs) != 1 || errs[0].Detail != nf.Detail()) {
			t.Fatalf("Resolve(%q) = %v; want one error with the detail %q", miss, errs, nf.Detail())
		}
	})
}

// TestInvalidNameNotOffered: the instance type Tiny_Type of examples/broken is neither
// suggested nor listed, though the catalog holds it.
func TestInvalidNameNotOffered(t *testing.T) {
	c := NewCatalog(newType("gpu-large", nil, nil, nil), newType("Tiny_Type", nil, nil, nil))
	if _, ok := c.Get("Tiny_Type"); !ok {
		t.Fatal("the catalog lost Tiny_Type")
	}
	for _, miss := range []string{"cpusmal", "tiny_type", "Tiny_Typ"} {
		_, err := c.Lookup(miss)
		if got := err.Error(); strings.Contains(got, "Tiny_Type") {
			t.Errorf("Lookup(%q) = %s; want Tiny_Type not offered", miss, got)
		}
	}
	_, err := c.Lookup("cpusmal")
	if got, want := err.Error(), `resolve: instance type "cpusmal" not found; known instance types: "defaultinstancetype", "gpu-large"`; got != want {
		t.Errorf("Lookup(cpusmal) = %s; want %s", got, want)
	}
}

// placeholderTests: a placeholder for an instance type is one error of rule placeholder,
// which says what it is and lists the catalog's valid names (or, with NamesUnchecked, none).
var placeholderTests = []struct {
	name, instanceType string
	namesUnchecked     bool
	want               string
}{
	{"angle brackets", "<instance type name>", false,
		`not filled in: a placeholder in angle brackets, which nothing fills in; write the name of an instance type here: "cpusmall", "defaultinstancetype", "gpu"`},
	{"shell variable", "$INSTANCE_TYPE", false,
		`not filled in: a shell variable, which azure-ai-ml does not expand (a heredoc or a template whose variables were not substituted: ` +
			`expand them first, with the shell or envsubst, and check the result); write the name of an instance type here: "cpusmall", "defaultinstancetype", "gpu"`},
	{"braced shell variable, no catalog", "${INSTANCE_TYPE}", true,
		`not filled in: a shell variable, which azure-ai-ml does not expand (a heredoc or a template whose variables were not substituted: ` +
			`expand them first, with the shell or envsubst, and check the result); write the name of an instance type here, one of the cluster's (kubectl get instancetypes)`},
	{"template action", "{{ .Values.instanceType }}", false,
		`not filled in: a template action ({{ }}) that was not rendered (render the template first, and check the result); ` +
			`write the name of an instance type here: "cpusmall", "defaultinstancetype", "gpu"`},
	{"pipeline expression", "${{parent.inputs.instance_type}}", false,
		`not filled in: an Azure ML expression, which Azure ML fills in only when the job is submitted (from the pipeline's inputs), ` +
			`so what it names cannot be checked here; to have it checked, write the name of an instance type here: "cpusmall", "defaultinstancetype", "gpu"`},
}

func TestResolvePlaceholder(t *testing.T) {
	c := NewCatalog(cpuSmall(), gpuType(), newType("Bad_Name", nil, nil, nil))
	for _, tt := range placeholderTests {
		t.Run(tt.name, func(t *testing.T) {
			w := &workload.Workload{Kind: workload.ComputeJob, InstanceType: tt.instanceType}
			p, errs := c.Resolve(w, field.NewPath("jobs", "train"), Options{NamesUnchecked: tt.namesUnchecked})
			if p.Found {
				t.Errorf("Resolve(%q) found an instance type", tt.instanceType)
			}
			if len(errs) != 1 {
				t.Fatalf("Resolve(%q) = %v; want one error", tt.instanceType, errs)
			}
			e := errs[0]
			if e.Type != field.ErrorTypeInvalid || e.Field != "jobs.train.resources.instance_type" || e.Origin != rules.Placeholder || e.BadValue != tt.instanceType {
				t.Errorf("Resolve(%q) = %s %s %v (%s); want Invalid at jobs.train.resources.instance_type, rule placeholder", tt.instanceType, e.Type, e.Field, e.BadValue, e.Origin)
			}
			if e.Detail != tt.want {
				t.Errorf("Resolve(%q) detail:\n%s\nwant:\n%s", tt.instanceType, e.Detail, tt.want)
			}
		})
	}
}
