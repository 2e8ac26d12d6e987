package validate_test

import (
	"bytes"
	"io/fs"
	"testing"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/lint"
)

// lintExamples checks every manifest of fsys together, as the command-line tool does, and
// returns the report. It fails the test when fsys holds no manifest: a test that checks
// nothing must not pass.
func lintExamples(t *testing.T, fsys fs.FS, wantFiles int) *lint.Report {
	t.Helper()
	r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil {
		t.Fatalf("lint.Run: %v", err)
	}
	if r.Files < wantFiles || r.Documents == 0 {
		t.Fatalf("lint.Run read %d files, %d documents; want at least %d files", r.Files, r.Documents, wantFiles)
	}
	return r
}

// lines returns the number of lines of a file of fsys.
func lines(t *testing.T, fsys fs.FS, name string) int {
	t.Helper()
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return bytes.Count(data, []byte("\n")) + 1
}

// The manifests of the source document are valid together: no finding, nothing skipped,
// and every deployment and job resolved against the instance types they define.
func TestSourceManifests(t *testing.T) {
	r := lintExamples(t, examples.Manifests, 5)
	for _, x := range r.Findings {
		t.Errorf("%v", x)
	}
	for _, s := range r.Skipped {
		t.Errorf("skipped %s:%d: %s", s.File, s.Line, s.Reason)
	}
	if !r.NamesChecked {
		t.Error("NamesChecked = false; want the workloads checked against the instance types of the manifests")
	}
	if len(r.Placements) < 3 {
		t.Errorf("%d placements; want the job and the two deployments", len(r.Placements))
	}
	for _, p := range r.Placements {
		if !p.Resolved {
			t.Errorf("%s:%d: %s not resolved (instance type %q)", p.File, p.Line, p.DocumentKind, p.InstanceType)
		}
	}
}

// Every file of deliberate mistakes has findings, each on a line of the file.
func TestBrokenManifests(t *testing.T) {
	r := lintExamples(t, examples.Broken, 2)
	byFile := map[string]int{}
	for _, x := range r.Findings {
		byFile[x.File]++
		if n := lines(t, examples.Broken, x.File); x.Line < 1 || x.Line > n {
			t.Errorf("%v: not on a line of the file's %d", x, n)
		}
	}
	names, err := fs.Glob(examples.Broken, "*.yaml")
	if err != nil || len(names) < 2 {
		t.Fatalf("examples.Broken: %v, %v; want the broken manifests", names, err)
	}
	for _, name := range names {
		if byFile[name] == 0 {
			t.Errorf("%s: no findings", name)
		}
	}
}
