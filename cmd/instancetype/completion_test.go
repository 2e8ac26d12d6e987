package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// script writes the completion script of shell to a file and returns its path.
func script(t *testing.T, shell string) string {
	t.Helper()
	r := runBinary(t, ".", "", "completion", shell)
	if r.code != cli.ExitOK || r.stderr != "" {
		t.Fatalf("completion %s: exit %d, %s", shell, r.code, r.stderr)
	}
	p := filepath.Join(t.TempDir(), "instancetype."+shell)
	if err := os.WriteFile(p, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// shell returns the path of the shell, or skips the test: bash is on every machine the
// tests run on; .ci/run installs zsh and fish where it can, and then sets
// INSTANCETYPES_SHELLS_REQUIRED, which makes a missing shell a failure.
func shell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	switch {
	case err == nil:
		return p
	case os.Getenv("INSTANCETYPES_SHELLS_REQUIRED") != "":
		t.Fatalf("%s is not installed, and INSTANCETYPES_SHELLS_REQUIRED is set", name)
	}
	t.Skipf("%s is not installed (.ci/run installs it with apt-get where it can)", name)
	return ""
}

// TestCompletionScripts checks each script with its shell's parser, then completes
// command lines with it, as the shell does on TAB.
func TestCompletionScripts(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"deploy.yaml", "dir/x.yml"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	t.Run("bash", func(t *testing.T) {
		bash := shell(t, "bash")
		s := script(t, "bash")
		if out, err := exec.Command(bash, "-n", s).CombinedOutput(); err != nil {
			t.Fatalf("bash -n: %v\n%s", err, out)
		}
		complete := func(line string) []string {
			words := strings.Fields(line)
			if strings.HasSuffix(line, " ") {
				words = append(words, "")
			}
			var quoted []string
			for _, w := range words {
				quoted = append(quoted, "'"+w+"'")
			}
			prog := "source " + s + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) +
				"\n_instancetype\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("completing %q: %v\n%s", line, err, out)
			}
			got := strings.Fields(string(out))
			slices.Sort(got)
			return got
		}
		for _, tt := range []struct {
			line string
			want []string
		}{
			{"instancetype ", []string{"completion", "help", "list", "plan", "resolve", "rules", "suggest", "validate", "version"}},
			{"instancetype plan -o ", []string{"json", "text"}},
			{"instancetype suggest -o ", []string{"json", "yaml"}},
			{"instancetype plan --workload ", []string{"deployment", "job"}},
			{"instancetype suggest --over", []string{"--overhead-node", "--overhead-pod"}},
			{"instancetype plan --nodes di", []string{"dir"}},
			{"instancetype plan de", []string{"deploy.yaml"}},
			{"instancetype suggest de", nil},
			{"instancetype re", []string{"resolve"}},
			{"instancetype completion ", []string{"bash", "fish", "zsh"}},
			{"instancetype validate -o ", []string{"github", "json", "junit", "sarif", "text"}},
			{"instancetype validate --output s", []string{"sarif"}},
			{"instancetype validate --ignore R1", []string{"R1", "R10"}},
			{"instancetype validate --ignore dup", []string{"duplicate-key"}},
			{"instancetype validate --str", []string{"--strict-subset"}},
			{"instancetype validate --c", []string{"--catalog", "--computes", "--config"}},
			{"instancetype validate --tol", []string{"--tolerate"}},
			{"instancetype resolve --computes di", []string{"dir"}},
			{"instancetype validate de", []string{"deploy.yaml"}},
			{"instancetype resolve --nodes di", []string{"dir"}},
			{"instancetype rules -", []string{"--help", "--output", "-o"}},
			{"instancetype rules -o ", []string{"json", "text"}},
			{"instancetype rules --output j", []string{"json"}},
			{"instancetype frobnicate ", nil},
		} {
			if got := complete(tt.line); !slices.Equal(got, tt.want) {
				t.Errorf("completing %q: %q; want %q", tt.line, got, tt.want)
			}
		}
	})
	t.Run("zsh", func(t *testing.T) {
		zsh := shell(t, "zsh")
		s := script(t, "zsh")
		if out, err := exec.Command(zsh, "-n", s).CombinedOutput(); err != nil {
			t.Fatalf("zsh -n: %v\n%s", err, out)
		}
		// Loaded as source <(...) would load it, the function is defined and bound.
		out, err := exec.Command(zsh, "-f", "-c", "autoload -U compinit && compinit -u -D && source "+s+
			" && whence -w _instancetype && print -- $_comps[instancetype]").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "_instancetype: function") || !strings.Contains(string(out), "\n_instancetype") {
			t.Errorf("zsh: loading the script: %v\n%s", err, out)
		}
	})
	t.Run("fish", func(t *testing.T) {
		fish := shell(t, "fish")
		s := script(t, "fish")
		if out, err := exec.Command(fish, "-n", s).CombinedOutput(); err != nil {
			t.Fatalf("fish -n: %v\n%s", err, out)
		}
		complete := func(line string) []string {
			cmd := exec.Command(fish, "--no-config", "-c", "source "+s+"; complete -C '"+line+"'")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("completing %q: %v\n%s", line, err, out)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if w, _, _ := strings.Cut(l, "\t"); w != "" {
					got = append(got, w)
				}
			}
			slices.Sort(got)
			return got
		}
		for _, tt := range []struct {
			line string
			want []string
		}{
			{"instancetype re", []string{"resolve"}},
			{"instancetype validate -o ", []string{"github", "json", "junit", "sarif", "text"}},
			{"instancetype validate --ignore R1", []string{"R1", "R10"}},
			{"instancetype su", []string{"suggest"}},
			{"instancetype plan -o ", []string{"json", "text"}},
			{"instancetype suggest -o ", []string{"json", "yaml"}},
			{"instancetype plan --workload ", []string{"deployment", "job"}},
			{"instancetype completion ", []string{"bash", "fish", "zsh"}},
			{"instancetype validate de", []string{"deploy.yaml"}},
			{"instancetype rules -o ", []string{"json", "text"}},
		} {
			if got := complete(tt.line); !slices.Equal(got, tt.want) {
				t.Errorf("completing %q: %q; want %q", tt.line, got, tt.want)
			}
		}
	})
}
