package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
// exactly what `instancetype validate` says about the examples: the same finding lines.
func TestSameAsTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "instancetype")
	build := exec.Command("go", "build", "-o", bin, "./cmd/instancetype")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the command: %v\n%s", err, out)
	}
	for _, paths := range [][]string{
		{"examples/manifests", "examples/broken"},
		{"examples/broken/deployments.yaml"},
		{"examples"},
	} {
		cmd := exec.Command(bin, append([]string{"validate"}, paths...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		_ = cmd.Run() // exit 1: there are findings
		var in []lint.Input
		for _, p := range paths {
			in = append(in, lint.Path(filepath.Join(root, p)))
		}
		var ours strings.Builder
		n, err := run(&ours, in)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(strings.SplitAfter(ours.String(), "\n")[:n], "")
		got = strings.ReplaceAll(got, root+string(filepath.Separator), "")
		if got != stdout.String() || n == 0 {
			t.Errorf("validate %v: this program prints\n%s\nthe command prints\n%s", paths, got, stdout.String())
		}
	}
}
