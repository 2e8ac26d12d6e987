package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestGitHubEscaping(t *testing.T) {
	for _, tt := range []struct{ in, data, prop string }{
		{"plain text", "plain text", "plain text"},
		{"50% of a, b: c", "50%25 of a, b: c", "50%25 of a%2C b%3A c"},
		{"line\r\nbreak", `line\r\nbreak`, `line\r\nbreak`}, // escaped as the text output escapes them, first
		{"\x1b[31mred", `\x1b[31mred`, `\x1b[31mred`},
		{"%0A", "%250A", "%250A"}, // an escape written in the input stays text
	} {
		if got := ghData(tt.in); got != tt.data {
			t.Errorf("ghData(%q) = %q; want %q", tt.in, got, tt.data)
		}
		if got := ghProperty(tt.in); got != tt.prop {
			t.Errorf("ghProperty(%q) = %q; want %q", tt.in, got, tt.prop)
		}
	}
}

// finding is a finding of rule R2 in file at line 3, column 5.
func finding(file, detail string) lint.Finding {
	return lint.Finding{File: file, Position: lint.Position{Line: 3, Column: 5}, Type: lint.SyntaxError,
		Err: &field.Error{Type: field.ErrorTypeInvalid, BadValue: field.OmitValueType{}, Detail: detail, Origin: "syntax"}}
}

func TestSARIFLocations(t *testing.T) {
	for _, tt := range []struct{ file, uri, base string }{
		{"examples/broken/x.yaml", "examples/broken/x.yaml", "%SRCROOT%"},
		{"dir/a b#c.yaml", "dir/a%20b%23c.yaml", "%SRCROOT%"},
		{"../up.yaml", "../up.yaml", "%SRCROOT%"},
		{"<stdin>", "%3Cstdin%3E", "%SRCROOT%"},
		{"cluster:nodes", "./cluster:nodes", "%SRCROOT%"},
		{"/abs/x.yaml", "file:///abs/x.yaml", ""},
	} {
		loc, ok := sarifLocationOf(finding(tt.file, "x"))
		if !ok {
			t.Fatalf("%s: no location", tt.file)
		}
		a := loc.PhysicalLocation.ArtifactLocation
		if a.URI != tt.uri || a.URIBaseID != tt.base || loc.PhysicalLocation.Region.StartLine != 3 || loc.PhysicalLocation.Region.StartColumn != 5 {
			t.Errorf("%q: %+v %+v; want %q %q", tt.file, a, loc.PhysicalLocation.Region, tt.uri, tt.base)
		}
	}
	for _, tt := range []struct{ in, want string }{{"v0.1.0", "0.1.0"}, {"(devel)", "0.0.0-devel"}, {"v0.0.0-20261201-abcdef+dirty", "0.0.0-20261201-abcdef+dirty"}} {
		if got := sarifVersion(tt.in); got != tt.want {
			t.Errorf("sarifVersion(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// Hostile text in findings makes well-formed SARIF, JUnit and workflow commands: each
// decodes back to what it holds, and a workflow command stays one line.
func TestFormatsOfHostileText(t *testing.T) {
	detail := "a <tag> & \"quote\" \x1b[2J\x00 ]]> --> \u202e end\n::error::forged"
	r := &lint.Report{Findings: []lint.Finding{finding("x,y:z%.yaml", detail)}, Files: 1}
	var out, errOut bytes.Buffer
	w := writer{Env: Env{Stdout: &out, Stderr: &errOut}, cmd: "validate", program: "instancetype"}

	if err := w.sarif(r); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	if got := log.Runs[0].Results[0].Message.Text; got != detail {
		t.Errorf("SARIF message %q; want %q", got, detail)
	}

	out.Reset()
	if err := w.junit(r); err != nil {
		t.Fatal(err)
	}
	var suites junitSuites
	if err := xml.Unmarshal(out.Bytes(), &suites); err != nil {
		t.Fatalf("JUnit: %v\n%s", err, out.String())
	}
	if got := suites.Suites[0].Cases[0].Failure.Message; !strings.Contains(got, "<tag> & \"quote\"") || !strings.Contains(got, "forged") {
		t.Errorf("JUnit message %q", got)
	}

	out.Reset()
	if err := w.github(r); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); len(lines) != 1 ||
		!strings.HasPrefix(lines[0], "::error file=x%2Cy%3Az%25.yaml,line=3,col=5,title=syntax::") || strings.ContainsAny(lines[0], "\x1b\x00\u202e") {
		t.Errorf("workflow commands %q", out.String())
	}
}
