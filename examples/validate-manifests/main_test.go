package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/lint"
)

// The embedded manifests: the broken ones have findings, the source document's none.
func TestRun(t *testing.T) {
	var out strings.Builder
	n, err := run(&out, []lint.Input{lint.FS(examples.Manifests, "."), lint.FS(examples.Broken, ".")})
	if err != nil {
		t.Fatal(err)
	}
	if n != 9 || !strings.HasSuffix(out.String(), "9 findings; 7 files, 8 documents checked, 0 skipped\n") {
		t.Errorf("run = %d findings:\n%s", n, out.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[:n] {
		if !strings.HasPrefix(line, "deployments.yaml:") && !strings.HasPrefix(line, "instance_types.yaml:") {
			t.Errorf("a finding outside the broken manifests: %s", line)
		}
	}
	out.Reset()
	if n, err := run(&out, []lint.Input{lint.FS(examples.Manifests, ".")}); err != nil || n != 0 {
		t.Errorf("the source document's manifests: %d findings, %v:\n%s", n, err, out.String())
	}
}

// TestSameAsTheCommand proves that this program, the documented way to lint from Go, says
// exactly what `instancetype validate` says about the examples: the same finding lines. The
// command is run in process (cli.Main, which is all its main does).
func TestSameAsTheCommand(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, paths := range [][]string{
		{"examples/manifests", "examples/broken"},
		{"examples/broken/deployments.yaml"},
		{"examples"},
	} {
		var stdout, stderr bytes.Buffer
		cli.Main(append([]string{"validate"}, paths...), cli.Env{Stdout: &stdout, Stderr: &stderr})
		var in []lint.Input
		for _, p := range paths {
			in = append(in, lint.Path(p))
		}
		var ours strings.Builder
		n, err := run(&ours, in)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(strings.SplitAfter(ours.String(), "\n")[:n], "")
		if got != stdout.String() || n == 0 {
			t.Errorf("validate %v: this program prints\n%s\nthe command prints\n%s", paths, got, stdout.String())
		}
	}
}
