//go:build unix

package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// A walk opens only regular files: a named pipe among the manifests of a directory (which
// would make the walk wait for a writer for ever), a device or a socket is skipped with the
// reason, and the rest is read. (A hang fails by the test's timeout.)
func TestWalkSkipsWhatIsNoRegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "types.yaml"), []byte(instanceType("a", okResources)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	r, err := lint.Run([]lint.Input{lint.Path(dir)}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 || r.Documents != 1 || r.Files != 1 {
		t.Errorf("findings %v, %d documents in %d files; want the one instance type, no finding", findings(r), r.Documents, r.Files)
	}
	reasons := map[string]string{}
	for _, s := range r.Skipped {
		reasons[filepath.Base(s.File)] = s.Reason
	}
	for file, want := range map[string]string{"pipe.yaml": "a named pipe", "zero.yaml": "a character device"} {
		if got := reasons[file]; !strings.Contains(got, "not a regular file ("+want+")") {
			t.Errorf("%s skipped for %q; want %q", file, got, want)
		}
	}
}

// A named pipe named as a PATH is read, as the shell's <(kubectl get …) hands one over.
func TestNamedPipeAsPath(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "types")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString(instanceType("Bad_Name", okResources))
	}()
	r, err := lint.Run([]lint.Input{lint.Path(pipe)}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := findings(r); len(got) != 1 || !strings.Contains(got[0], "metadata.name") {
		t.Errorf("findings %v; want the bad name, read from the pipe", got)
	}
}

// A file named as a PATH that cannot be read is an error (the command's exit status 2), as
// a missing one is; one met in a walk is a finding.
func TestUnreadableNamedFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files without read permission")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(p, []byte(instanceType("a", okResources)), 0o000); err != nil {
		t.Fatal(err)
	}
	if _, err := lint.Run([]lint.Input{lint.Path(p)}, lint.Options{}); err == nil || !os.IsPermission(err) {
		t.Errorf("named unreadable file: %v; want a permission error", err)
	}
	r, err := lint.Run([]lint.Input{lint.Path(dir)}, lint.Options{})
	if err != nil || len(r.Findings) != 1 || r.Findings[0].TypeName() != "UnreadableFile" {
		t.Errorf("walked unreadable file: %v, %v; want one UnreadableFile finding", findings(r), err)
	}
	// A directory that cannot be listed: execute permission only, or none.
	for _, mode := range []os.FileMode{0o100, 0o000} {
		locked := filepath.Join(dir, "locked")
		os.Mkdir(locked, 0o755)
		os.WriteFile(filepath.Join(locked, "types.yaml"), []byte(instanceType("a", okResources)), 0o644)
		os.Chmod(locked, mode)
		if _, err := lint.Run([]lint.Input{lint.Path(locked)}, lint.Options{}); err == nil || !os.IsPermission(err) || !strings.Contains(err.Error(), locked) {
			t.Errorf("named directory of mode %v: %v; want a permission error naming it", mode, err)
		}
		os.Chmod(locked, 0o755)
		os.RemoveAll(locked)
	}
}
