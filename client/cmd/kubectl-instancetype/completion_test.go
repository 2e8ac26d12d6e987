package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// script writes the plugin's completion script of shell to a file and returns its path.
func script(t *testing.T, shell string) string {
	t.Helper()
	code, out, errOut := run("completion", shell)
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("completion %s: exit %d, %s", shell, code, errOut)
	}
	p := filepath.Join(t.TempDir(), "kubectl-instancetype."+shell)
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// shell returns the path of the shell, or skips the test; with INSTANCETYPES_SHELLS_REQUIRED
// set (.ci/run sets it once it has installed zsh and fish) a missing shell fails it.
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

// TestCompletionScripts checks each script with its shell's parser, then completes command
// lines with it, as the shell does on TAB.
func TestCompletionScripts(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"deploy.yaml", "dir/x.yml"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"capacity", "completion", "help", "list", "plan", "resolve", "rules", "suggest", "validate", "version"}
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
			prog := "source " + s + "\ncomplete -p kubectl-instancetype >/dev/null || exit 3\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
				strconv.Itoa(len(words)-1) + "\n_kubectl_instancetype\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
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
			{"kubectl-instancetype ", all},
			{"kubectl-instancetype ca", []string{"capacity"}},
			{"kubectl-instancetype completion ", []string{"bash", "fish", "zsh"}},
			{"kubectl-instancetype help ca", []string{"capacity"}},
			{"kubectl-instancetype validate -o ", []string{"github", "json", "junit", "sarif", "text"}},
			{"kubectl-instancetype capacity -o ", []string{"json", "text"}},
			{"kubectl-instancetype validate --ignore R1", []string{"R1", "R10"}},
			{"kubectl-instancetype validate --kubec", []string{"--kubeconfig"}},
			{"kubectl-instancetype capacity --kubeconfig di", []string{"dir"}},
			{"kubectl-instancetype resolve --catalog di", []string{"dir"}},
			{"kubectl-instancetype validate --cont", []string{"--context"}},
			{"kubectl-instancetype validate --context ", nil},
			{"kubectl-instancetype validate --max-", []string{"--max-bytes", "--max-objects", "--max-page-bytes"}},
			{"kubectl-instancetype capacity --po", []string{"--pool-label"}},
			{"kubectl-instancetype capacity --ca", []string{"--cache-dir"}}, // not --catalog
			{"kubectl-instancetype capacity de", nil},                       // capacity takes no PATH
			{"kubectl-instancetype list de", []string{"deploy.yaml"}},
			{"kubectl-instancetype frobnicate ", nil},
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
		out, err := exec.Command(zsh, "-f", "-c", "autoload -U compinit && compinit -u -D && source "+s+
			" && whence -w _kubectl-instancetype && print -- $_comps[kubectl-instancetype]").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "_kubectl-instancetype: function") || !strings.Contains(string(out), "\n_kubectl-instancetype") {
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
			{"kubectl-instancetype ", all},
			{"kubectl-instancetype ca", []string{"capacity"}},
			{"kubectl-instancetype validate -o ", []string{"github", "json", "junit", "sarif", "text"}},
			{"kubectl-instancetype capacity -o ", []string{"json", "text"}},
			{"kubectl-instancetype validate --ignore R1", []string{"R1", "R10"}},
			{"kubectl-instancetype capacity --pool", []string{"--pool-label"}},
			{"kubectl-instancetype completion ", []string{"bash", "fish", "zsh"}},
			{"kubectl-instancetype validate de", []string{"deploy.yaml"}},
		} {
			if got := complete(tt.line); !slices.Equal(got, tt.want) {
				t.Errorf("completing %q: %q; want %q", tt.line, got, tt.want)
			}
		}
	})
}

// longFlag is a --flag a help text lists: the first on a line of the flags' lists (the
// prose around them may name another command's flag, as the cluster's part of the help
// names --catalog for every command).
var longFlag = regexp.MustCompile(`(?m)^\s+(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)`)

// TestCompletionFlags: every flag the scripts offer for a command is one the command takes,
// and every flag its help names is offered, so that the scripts follow the flags.
func TestCompletionFlags(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	pl := newPlugin()
	for _, tt := range pl.groups() {
		offered := map[string]bool{}
		for _, f := range tt.flags {
			for _, n := range f.names {
				offered[n] = true
			}
		}
		for _, cmd := range tt.cmds {
			for _, f := range tt.flags {
				for _, n := range f.names {
					if n == "--help" {
						continue
					}
					args := []string{cmd, n}
					switch {
					case f.value == "":
					case n == "--server" || n == "-s":
						args = append(args, "http://127.0.0.1:1")
					case f.value == "file" || f.value == "free":
						args = append(args, "x")
					default:
						args = append(args, strings.Fields(f.value)[0])
					}
					// No cluster: the run ends at a usage error or at the cluster, never at
					// an unknown flag.
					if _, _, errOut := run(args...); strings.Contains(errOut, "not defined") {
						t.Errorf("%v: %s", args, errOut)
					}
				}
			}
			_, help, _ := run("help", cmd)
			for _, m := range longFlag.FindAllStringSubmatch(help, -1) {
				if !offered[m[1]] {
					t.Errorf("help %s names %s, which completion does not offer", cmd, m[1])
				}
			}
		}
	}
	if _, help, _ := run("help", "validate"); !strings.Contains(help, "--kubeconfig") || !strings.Contains(help, "--catalog") {
		t.Errorf("help validate names no --kubeconfig or --catalog:\n%s", help)
	}
}

// TestCompletionUsage: one shell, by name; help without a shell.
func TestCompletionUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"completion"}, cli.ExitUsage, "kubectl instancetype completion: name one shell: bash, zsh or fish\n"},
		{[]string{"completion", "bash", "zsh"}, cli.ExitUsage, "kubectl instancetype completion: name one shell"},
		{[]string{"completion", "tcsh"}, cli.ExitUsage, "kubectl instancetype completion: unknown shell \"tcsh\": want bash, zsh or fish\n"},
		{[]string{"completion", "\x1b[2J"}, cli.ExitUsage, "kubectl instancetype completion: unknown shell \"\\x1b[2J\""},
		{[]string{"completion", "--help"}, cli.ExitOK, "Usage: kubectl instancetype completion bash|zsh|fish\n"},
		{[]string{"help", "completion"}, cli.ExitOK, "Usage: kubectl instancetype completion bash|zsh|fish\n"},
	} {
		code, out, errOut := run(tt.args...)
		if code != tt.code || !strings.HasPrefix(out+errOut, tt.out) {
			t.Errorf("%q: exit %d, %q%q; want %d, %q", tt.args, code, out, errOut, tt.code, tt.out)
		}
	}
	if code, out, _ := run("help"); code != cli.ExitOK || !strings.Contains(out, "kubectl instancetype completion SHELL") {
		t.Errorf("help does not list completion:\n%s", out)
	}
}
