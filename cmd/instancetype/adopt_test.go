package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// onPath returns a PATH on which instancetype is this test binary (the command, as
// TestMain makes every process it starts).
func onPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	if err := os.Symlink(binary, filepath.Join(bin, "instancetype")); err != nil {
		t.Skip("no symlinks:", err)
	}
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestPreCommitHook: the hook of .pre-commit-hooks.yaml is well formed, and its entry with
// its args is a command line of instancetype that checks the working directory.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Name, Entry, Language, Files string
		Args                             []string
		PassFilenames                    *bool `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks", len(hooks))
	}
	h := hooks[0]
	if h.ID != "instancetype" || h.Name == "" || h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames {
		t.Errorf("hook %+v", h)
	}
	if re := regexp.MustCompile(h.Files); !re.MatchString("deploy/a.yaml") || !re.MatchString("b.yml") || !re.MatchString("c.json") || re.MatchString("main.go") {
		t.Errorf("files %q", h.Files)
	}
	words := append(strings.Fields(h.Entry), h.Args...)
	if words[0] != "instancetype" {
		t.Fatalf("entry %q", h.Entry)
	}
	dir := workdir(t)
	r := runBinary(t, filepath.Join(dir, "examples", "manifests"), "", words[1:]...)
	if r.code != cli.ExitOK || !strings.HasPrefix(r.stderr, "no problems; 5 files") {
		t.Errorf("%v in examples/manifests: exit %d\n%s%s", words, r.code, r.stdout, r.stderr)
	}
	if r := runBinary(t, filepath.Join(dir, "examples", "broken"), "", words[1:]...); r.code != cli.ExitFindings {
		t.Errorf("%v in examples/broken: exit %d", words, r.code)
	}
}

// action is action.yml as far as the tests read it.
type action struct {
	Inputs  map[string]struct{ Description, Default string }
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []struct {
			ID, Name, Shell, Run, Uses, If string
			Env, With                      map[string]string
		}
	}
}

func readAction(t *testing.T) (action, string) {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a, string(data)
}

// TestActionIsWellFormed: a composite action whose expressions name inputs and steps it
// has, whose run steps have a shell, and whose scripts take the inputs as variables, never
// as text (which would let an input inject commands).
func TestActionIsWellFormed(t *testing.T) {
	a, text := readAction(t)
	if a.Runs.Using != "composite" || len(a.Runs.Steps) < 3 {
		t.Fatalf("runs %+v", a.Runs)
	}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(text, -1) {
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("inputs.%s is not an input", m[1])
		}
	}
	ids := map[string]bool{}
	for _, s := range a.Runs.Steps {
		ids[s.ID] = s.ID != ""
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %q runs without shell: bash", s.Name)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q puts an expression in its script; pass it in env", s.Name)
		}
		if s.Run == "" && s.Uses == "" {
			t.Errorf("step %q does nothing", s.Name)
		}
	}
	for _, m := range regexp.MustCompile(`steps\.([a-z-]+)\.outputs`).FindAllStringSubmatch(text, -1) {
		if !ids[m[1]] {
			t.Errorf("steps.%s is not a step", m[1])
		}
	}
	for name, in := range a.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
}

// TestActionCheckStep runs the script of the action's check step as the runner would, with
// instancetype on PATH: annotations for github, a SARIF log for sarif, the exit status as
// an output, and a usage error for another format.
func TestActionCheckStep(t *testing.T) {
	a, _ := readAction(t)
	var script string
	for _, s := range a.Runs.Steps {
		if s.ID == "check" {
			script = s.Run
		}
	}
	if script == "" {
		t.Fatal("no step check")
	}
	dir := workdir(t)
	path := onPath(t)
	run := func(format, paths, args string) (int, string, map[string]string) {
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path, "GITHUB_OUTPUT="+out, "FORMAT="+format, "PATHS="+paths, "ARGS="+args,
			"INSTANCETYPE="+filepath.Join(strings.SplitN(path, string(os.PathListSeparator), 2)[0], "instancetype"))
		stdout, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		outputs := map[string]string{}
		data, _ := os.ReadFile(out)
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				outputs[k] = v
			}
		}
		return code, string(stdout), outputs
	}
	code, out, outputs := run("github", "examples/broken", "")
	if code != 0 || outputs["status"] != "1" || strings.Count(out, "::error file=examples/broken/") != 9 {
		t.Errorf("github: exit %d, outputs %v\n%s", code, outputs, out)
	}
	code, out, outputs = run("github", "examples/manifests examples/broken/instance_types.yaml", "--ignore R2 --ignore R1")
	if code != 0 || outputs["status"] != "1" || strings.Contains(out, "title=R2") || !strings.Contains(out, "title=R3") {
		t.Errorf("github with args: exit %d, outputs %v\n%s", code, outputs, out)
	}
	code, _, outputs = run("sarif", "examples/manifests", "")
	data, err := os.ReadFile(filepath.Join(dir, "instancetype.sarif"))
	if code != 0 || outputs["status"] != "0" || outputs["sarif-file"] != "instancetype.sarif" || err != nil || !json.Valid(data) {
		t.Errorf("sarif: exit %d, outputs %v, %v", code, outputs, err)
	}
	if code, out, _ := run("github", "examples/", "--bogus"); code != 2 {
		t.Errorf("a usage error: exit %d\n%s", code, out)
	}
	if code, out, _ := run("xml", ".", ""); code != 2 || !strings.Contains(out, "::error title=instancetype::") {
		t.Errorf("format xml: exit %d\n%s", code, out)
	}
	// A pattern among the args reaches instancetype as written: the shell expands none
	// (here i* would be the directory inputs, and leave instance_types.yaml checked).
	if code, out, outputs := run("github", "examples/broken", "--exclude i*"); code != 0 || outputs["status"] != "1" ||
		strings.Contains(out, "instance_types.yaml") || !strings.Contains(out, "deployments.yaml") {
		t.Errorf("github with a pattern in args: exit %d, outputs %v\n%s", code, outputs, out)
	}
}
