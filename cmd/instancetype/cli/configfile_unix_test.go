//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/lint"
)

// A config file found by the lookup that is a FIFO, or owned by another user, is passed
// over with a note, and the lookup goes on up to the repository's root; named with
// --config, it is read as given.
func TestFindConfigPassesOver(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, lint.ConfigName), []byte("ignore: [R9]\n"), 0o644)
	fifo := filepath.Join(deep, lint.ConfigName)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	got, notes, err := FindConfig(deep)
	if err != nil || got != filepath.Join(repo, lint.ConfigName) || len(notes) != 1 || !strings.Contains(notes[0], "not a regular file") {
		t.Errorf("FindConfig with a FIFO = %q, %q, %v; want the repository's, with a note", got, notes, err)
	}

	// Through the command: it does not wait for a writer, says why, and uses the one above.
	t.Chdir(deep)
	os.WriteFile("it.yaml", []byte(instanceType("a", okResources)), 0o644)
	done := make(chan string, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"validate", "it.yaml"}, Env{Stdout: &stdout, Stderr: &stderr})
		done <- strings.TrimSpace(stderr.String()) + " (exit " + strconv.Itoa(code) + ")"
	}()
	select {
	case out := <-done:
		if !strings.Contains(out, "note: config file "+fifo+" passed over: not a regular file") || !strings.HasSuffix(out, "(exit 0)") {
			t.Errorf("with a FIFO config: %s", out)
		}
	case <-time.After(time.Minute): // a safety net: the fix is that it never waits
		t.Fatal("the command waits on a FIFO config file")
	}

	// Another user's file, when the test can make one (as root).
	os.Remove(fifo)
	other := filepath.Join(deep, lint.ConfigName)
	os.WriteFile(other, []byte("ignore: [R2]\n"), 0o644)
	if err := os.Chown(other, 4242, 4242); err != nil {
		t.Skipf("cannot give a file to another user here: %v", err)
	}
	got, notes, err = FindConfig(deep)
	if err != nil || got != filepath.Join(repo, lint.ConfigName) || len(notes) != 1 || !strings.Contains(notes[0], "owned by another user (uid 4242)") {
		t.Errorf("FindConfig with another user's file = %q, %q, %v; want the repository's, with a note", got, notes, err)
	}
	// Named with --config, it is read.
	if _, set, err := ReadConfig(other); err != nil || !set["ignore"] {
		t.Errorf("ReadConfig of another user's file named: %v, %v", set, err)
	}
}
