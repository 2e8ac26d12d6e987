package lint_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// ruleFindings renders findings as FILE:LINE RULE.
func ruleFindings(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule()))
	}
	return out
}

func suppressed(r *lint.Report) []string {
	var out []string
	for _, s := range r.Suppressed {
		out = append(out, fmt.Sprintf("%s:%d %s by %s", s.File, s.Line, s.Rule(), s.By))
	}
	return out
}

// twoBadTypes is an instance type with findings of R2 (line 8) and of R1 (line 4).
const twoBadTypes = `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: Bad_Name
spec:
  resources:
    requests:
      cpu: "0"
      memory: 1Gi
    limits: {cpu: "1", memory: 2Gi}
`

func TestSuppressionComments(t *testing.T) {
	tests := []struct {
		name             string
		data             string
		wantFindings     []string
		wantSuppressed   []string
		wantSuppressions int
	}{
		{"none", twoBadTypes, []string{"a.yaml:4 R1", "a.yaml:8 R2"}, nil, 0},
		{"on the line", strings.Replace(twoBadTypes, `cpu: "0"`, `cpu: "0" # instancetype:ignore R2`, 1),
			[]string{"a.yaml:4 R1"}, []string{"a.yaml:8 R2 by comment on line 8"}, 1},
		{"on the line, another rule", strings.Replace(twoBadTypes, `cpu: "0"`, `cpu: "0" # instancetype:ignore R3`, 1),
			[]string{"a.yaml:4 R1", "a.yaml:8 R2", "a.yaml:8 suppression"}, nil, 0},
		{"above", strings.Replace(twoBadTypes, "      cpu: \"0\"", "      # instancetype:ignore R2 -- a placeholder\n      cpu: \"0\"", 1),
			[]string{"a.yaml:4 R1"}, []string{"a.yaml:9 R2 by comment on line 8"}, 1},
		{"the document", "# instancetype:ignore R1, R2\n" + twoBadTypes,
			nil, []string{"a.yaml:5 R1 by comment on line 1", "a.yaml:9 R2 by comment on line 1"}, 2},
		{"the document, one rule unused", "# instancetype:ignore R1 R9\n" + twoBadTypes,
			[]string{"a.yaml:1 suppression", "a.yaml:9 R2"}, []string{"a.yaml:5 R1 by comment on line 1"}, 1},
		{"another document", "# instancetype:ignore R1\n" + twoBadTypes + "---\n" + strings.Replace(twoBadTypes, "Bad_Name", "Other_Name", 1),
			[]string{"a.yaml:16 R1", "a.yaml:9 R2", "a.yaml:20 R2"}, []string{"a.yaml:5 R1 by comment on line 1"}, 1},
		{"unknown rule", strings.Replace(twoBadTypes, `cpu: "0"`, `cpu: "0" # instancetype:ignore R2 r99`, 1),
			[]string{"a.yaml:4 R1", "a.yaml:8 suppression"}, []string{"a.yaml:8 R2 by comment on line 8"}, 1},
		{"no rule", strings.Replace(twoBadTypes, `cpu: "0"`, `cpu: "0" # instancetype:ignore`, 1),
			[]string{"a.yaml:4 R1", "a.yaml:8 R2", "a.yaml:8 suppression"}, nil, 0},
		{"in a string", strings.Replace(twoBadTypes, "kind: InstanceType", "kind: InstanceType\n# instancetype:ignore R1\n", 1) + "# \"x # instancetype:ignore R2\"\n",
			[]string{"a.yaml:3 suppression", "a.yaml:6 R1", "a.yaml:10 R2"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, lint.Options{}, "a.yaml", tt.data)
			got := ruleFindings(r.Findings)
			slices.Sort(got)
			want := slices.Clone(tt.wantFindings)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("findings %q; want %q", got, want)
			}
			if got := suppressed(r); !slices.Equal(got, tt.wantSuppressed) {
				t.Errorf("suppressed %q; want %q", got, tt.wantSuppressed)
			}
			if r.SuppressedCount != tt.wantSuppressions {
				t.Errorf("SuppressedCount = %d; want %d", r.SuppressedCount, tt.wantSuppressions)
			}
			for _, s := range r.Suppressed {
				if !s.InSource {
					t.Errorf("%v: not InSource", s)
				}
			}
		})
	}
}

// A workload's findings, made once the catalog is formed, are suppressed by its file's
// comments as those of its reading are.
func TestSuppressionOfWorkloadFindings(t *testing.T) {
	dep := deployment("instance_type: gpu\nresources:\n  requests: {cpu: 500m, memory: 1Gi}\n  limits: {cpu: \"2\", memory: 1Gi} # instancetype:ignore R9\n")
	r := run(t, lint.Options{}, "d.yaml", dep, "t.yaml", gpuType)
	if len(r.Findings) != 0 || !slices.Equal(suppressed(r), []string{"d.yaml:7 R9 by comment on line 7"}) {
		t.Errorf("findings %q, suppressed %q", ruleFindings(r.Findings), suppressed(r))
	}
	// Without the catalog, the workload has no R9 finding: the comment is stale.
	r = run(t, lint.Options{}, "d.yaml", dep)
	if got := ruleFindings(r.Findings); !slices.Equal(got, []string{"d.yaml:7 suppression"}) {
		t.Errorf("findings %q; want the stale comment", got)
	}
}

func TestIgnore(t *testing.T) {
	ig := func(s string) lint.Ignore {
		i, err := lint.ParseIgnore(s)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	files := []string{"deploy/a.yaml", twoBadTypes, "legacy/b.yaml", strings.Replace(twoBadTypes, "Bad_Name", "b", 1)}
	tests := []struct {
		ignore         []lint.Ignore
		wantFindings   []string
		wantSuppressed []string
	}{
		{nil, []string{"deploy/a.yaml:4 R1", "deploy/a.yaml:8 R2", "legacy/b.yaml:8 R2"}, nil},
		{[]lint.Ignore{ig("r2")}, []string{"deploy/a.yaml:4 R1"},
			[]string{"deploy/a.yaml:8 R2 by Options.Ignore", "legacy/b.yaml:8 R2 by Options.Ignore"}},
		{[]lint.Ignore{ig("R2=legacy/*")}, []string{"deploy/a.yaml:4 R1", "deploy/a.yaml:8 R2"},
			[]string{"legacy/b.yaml:8 R2 by Options.Ignore"}},
		{[]lint.Ignore{ig("R2=b.yaml"), {Rule: "R1", Source: "--ignore R1"}}, []string{"deploy/a.yaml:8 R2"},
			[]string{"deploy/a.yaml:4 R1 by --ignore R1", "legacy/b.yaml:8 R2 by Options.Ignore"}},
		// An ignore that suppresses nothing is no finding.
		{[]lint.Ignore{ig("R9")}, []string{"deploy/a.yaml:4 R1", "deploy/a.yaml:8 R2", "legacy/b.yaml:8 R2"}, nil},
	}
	for _, tt := range tests {
		r := run(t, lint.Options{Ignore: tt.ignore}, files...)
		if got := ruleFindings(r.Findings); !slices.Equal(got, tt.wantFindings) {
			t.Errorf("%+v: findings %q; want %q", tt.ignore, got, tt.wantFindings)
		}
		if got := suppressed(r); !slices.Equal(got, tt.wantSuppressed) {
			t.Errorf("%+v: suppressed %q; want %q", tt.ignore, got, tt.wantSuppressed)
		}
		for _, s := range r.Suppressed {
			if s.InSource {
				t.Errorf("%v: InSource", s)
			}
		}
	}
}

// A finding a comment and an Ignore both suppress counts for the comment, which is then
// not stale; --ignore suppression turns off the findings about comments.
func TestCommentAndIgnore(t *testing.T) {
	data := strings.Replace(twoBadTypes, `cpu: "0"`, `cpu: "0" # instancetype:ignore R2`, 1) + "# instancetype:ignore R9\n"
	r := run(t, lint.Options{Ignore: []lint.Ignore{{Rule: "R2"}}}, "a.yaml", data)
	if got := ruleFindings(r.Findings); !slices.Equal(got, []string{"a.yaml:4 R1", "a.yaml:11 suppression"}) {
		t.Errorf("findings %q", got)
	}
	if got := suppressed(r); !slices.Equal(got, []string{"a.yaml:8 R2 by comment on line 8"}) {
		t.Errorf("suppressed %q", got)
	}
	r = run(t, lint.Options{Ignore: []lint.Ignore{{Rule: "suppression"}}}, "a.yaml", data)
	if got := ruleFindings(r.Findings); !slices.Equal(got, []string{"a.yaml:4 R1"}) {
		t.Errorf("with --ignore suppression: findings %q", got)
	}
}

// Suppressed findings do not count towards a file's limit; the count of those left out
// cannot be suppressed.
func TestSuppressionAndMaxFindings(t *testing.T) {
	data := "a: [1\n---\n# instancetype:ignore syntax\nb: [2\n---\n# instancetype:ignore syntax\nc: [3\n---\nd: [4\n---\ne: [5\n"
	r := run(t, lint.Options{MaxFindings: 1}, "a.yaml", data)
	if got := ruleFindings(r.Findings); !slices.Equal(got, []string{"a.yaml:1 syntax", "a.yaml:1 too-many-findings"}) {
		t.Errorf("findings %q", got)
	}
	if !strings.Contains(r.Findings[1].Message(), "2 more findings") || r.SuppressedCount != 2 {
		t.Errorf("%q, %d suppressed", r.Findings[1].Message(), r.SuppressedCount)
	}
	// The list of suppressed findings is capped too, the count is not.
	r = run(t, lint.Options{MaxFindings: 1, Ignore: []lint.Ignore{{Rule: "syntax"}}}, "a.yaml", data)
	if len(r.Findings) != 0 || len(r.Suppressed) != 1 || r.SuppressedCount != 5 {
		t.Errorf("findings %q, %d suppressed listed, %d counted", ruleFindings(r.Findings), len(r.Suppressed), r.SuppressedCount)
	}
	if _, err := lint.ParseIgnore("too-many-findings"); err == nil {
		t.Errorf("ParseIgnore(too-many-findings): no error")
	}
}

func TestParseIgnore(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want lint.Ignore
		err  string
	}{
		{"R9", lint.Ignore{Rule: "R9"}, ""},
		{"r9=legacy/*", lint.Ignore{Rule: "R9", Glob: "legacy/*"}, ""},
		{"duplicate-key=*.json", lint.Ignore{Rule: "duplicate-key", Glob: "*.json"}, ""},
		{"", lint.Ignore{}, "no rule"},
		{"=x", lint.Ignore{}, "no rule"},
		{"R99", lint.Ignore{}, `unknown rule "R99"`},
		{"duplicate_key", lint.Ignore{}, `did you mean "duplicate-key"?`},
		{"R9=[", lint.Ignore{}, "bad pattern"},
	} {
		got, err := lint.ParseIgnore(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseIgnore(%q) error %v; want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseIgnore(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	// Run refuses an Ignore that ParseIgnore would refuse.
	_, err := lint.Run([]lint.Input{lint.Bytes("a.yaml", []byte("a: 1\n"))}, lint.Options{Ignore: []lint.Ignore{{Rule: "R99"}}})
	if err == nil || !errors.Is(err, err) || !strings.Contains(err.Error(), "R99") {
		t.Errorf("Run with an unknown rule: %v", err)
	}
}

// A file given both as an input and as the cluster's catalog is read twice: a problem of
// reading it, suppressed, is one suppressed finding.
func TestSuppressionOfAFileReadTwice(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/types.yaml"
	if err := os.WriteFile(p, []byte("# instancetype:ignore syntax\na: [1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := lint.Run([]lint.Input{lint.Path(p)}, lint.Options{Catalog: []lint.Input{lint.Path(p)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 || r.SuppressedCount != 1 {
		t.Errorf("findings %q, %d suppressed; want the syntax error once, suppressed", ruleFindings(r.Findings), r.SuppressedCount)
	}
}

// A file that starts with "{" is YAML to kubectl unless it is JSON (apimachinery falls
// back to YAML when the JSON decoder stops at the first value), and its comments are YAML
// comments: they suppress findings as in any YAML file. A comment after a JSON value is
// in the YAML that follows it, another document: it suppresses nothing there, and is a
// finding that says so.
func TestSuppressionInAFileThatStartsWithABrace(t *testing.T) {
	const missingMemory = `{resources: {requests: {cpu: "1"}, limits: {cpu: "1", memory: 1Gi}}}`
	const full = `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "b"}, "spec": {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}}}}`
	for _, tt := range []struct {
		name, data string
		findings   []string
		suppressed int
	}{
		{"flow mapping, comment above the line", "{apiVersion: amlarc.azureml.com/v1alpha1, kind: InstanceType,\n metadata: {name: a},\n # instancetype:ignore R2\n spec: " + missingMemory + "}\n", nil, 1},
		{"flow mapping, comment on the line", "{apiVersion: amlarc.azureml.com/v1alpha1, kind: InstanceType, metadata: {name: a}, spec: " + missingMemory + "} # instancetype:ignore R2\n", nil, 1},
		{"JSON with a comment inside, so YAML", "{\"apiVersion\": \"amlarc.azureml.com/v1alpha1\", \"kind\": \"InstanceType\", \"metadata\": {\"name\": \"a\"},\n # instancetype:ignore R2\n \"spec\": " + missingMemory + "}\n", nil, 1},
		{"JSON, then a YAML document", full + "\n---\n# instancetype:ignore R2\napiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\nspec: " + missingMemory + "\n", nil, 1},
		{"JSON, then YAML without a separator", full + "\n# instancetype:ignore R2\napiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\nspec: " + missingMemory + "\n", nil, 1},
		{"JSON, then a comment: another document", strings.Replace(full, `, "memory": "1Gi"}, "limits"`, `}, "limits"`, 1) + " # instancetype:ignore R2\n", []string{"R2", "suppression"}, 0},
	} {
		r := run(t, lint.Options{}, "a.yaml", tt.data)
		var rules []string
		for _, f := range r.Findings {
			rules = append(rules, f.Rule())
		}
		if fmt.Sprint(rules) != fmt.Sprint(tt.findings) || r.SuppressedCount != tt.suppressed {
			t.Errorf("%s: findings %q, %d suppressed; want %v, %d suppressed", tt.name, ruleFindings(r.Findings), r.SuppressedCount, tt.findings, tt.suppressed)
		}
	}
}
