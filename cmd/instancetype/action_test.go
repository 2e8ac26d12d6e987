package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actionRun is what a run of action.yml came to in runAction.
type actionRun struct {
	steps   []string          // the names of the steps that ran (a uses: step is named, not run)
	failed  string            // the step that failed, if one did
	log     string            // what the steps printed
	outputs map[string]string // the action's outputs
}

// expression is a ${{ … }} of action.yml.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// runAction runs action.yml from this checkout as a runner runs a composite action with
// the given inputs and github.action_ref, in workspace: each step's if: evaluated, each
// run: step's script through bash with the runner's files (GITHUB_OUTPUT, GITHUB_PATH,
// GITHUB_STEP_SUMMARY, ...) and its env: with the expressions replaced, the outputs of
// steps read back. A uses: step is recorded, not run. It stops at the first step that
// fails, as a runner does.
func runAction(t *testing.T, workspace, ref string, inputs map[string]string, path string) actionRun {
	t.Helper()
	a, _ := readAction(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	temp := t.TempDir()
	stepOutputs := map[string]map[string]string{}
	value := func(expr string) string {
		parts := strings.Split(expr, ".")
		switch {
		case len(parts) == 2 && parts[0] == "inputs":
			in, ok := a.Inputs[parts[1]]
			if !ok {
				t.Fatalf("no input %s", parts[1])
			}
			if v, ok := inputs[parts[1]]; ok {
				return v
			}
			return in.Default
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			return stepOutputs[parts[1]][parts[3]]
		case expr == "github.action_path":
			return root
		case expr == "github.action_ref":
			return ref
		}
		t.Fatalf("an expression the test does not know: %q", expr)
		return ""
	}
	substitute := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string { return value(expression.FindStringSubmatch(m)[1]) })
	}
	// if: is a conjunction of comparisons with a literal, all action.yml uses.
	condition := func(cond string) bool {
		for _, term := range strings.Split(cond, "&&") {
			left, right, ok := strings.Cut(term, "==")
			lit := strings.TrimSpace(right)
			if !ok || len(lit) < 2 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
				t.Fatalf("a condition the test does not know: %q", cond)
			}
			if value(strings.TrimSpace(left)) != lit[1:len(lit)-1] {
				return false
			}
		}
		return true
	}
	run := actionRun{outputs: map[string]string{}}
	var log strings.Builder
	for i, s := range a.Runs.Steps {
		if s.If != "" && !condition(s.If) {
			continue
		}
		run.steps = append(run.steps, s.Name)
		if s.Uses != "" {
			for _, v := range s.With {
				substitute(v) // every expression is one the test knows
			}
			continue
		}
		files := map[string]string{}
		env := os.Environ()
		for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"} {
			files[name] = filepath.Join(temp, name+"-"+string(rune('a'+i)))
			env = append(env, name+"="+files[name])
		}
		env = append(env, "GITHUB_ACTION_PATH="+root, "GITHUB_WORKSPACE="+workspace, "RUNNER_TEMP="+temp, "GITHUB_ACTIONS=true")
		if path != "" {
			env = append(env, "PATH="+path)
		}
		for k, v := range s.Env {
			env = append(env, k+"="+substitute(v))
		}
		script := filepath.Join(temp, "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		bash, err := exec.LookPath("bash")
		if err != nil {
			t.Skip("no bash")
		}
		// The runner's shell: bash, shell: bash on every platform.
		cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir, cmd.Env = workspace, env
		out, err := cmd.CombinedOutput()
		log.Write(out)
		data, _ := os.ReadFile(files["GITHUB_OUTPUT"])
		stepOutputs[s.ID] = parseOutputs(t, string(data))
		if err != nil {
			run.failed = s.Name
			break
		}
	}
	run.log = log.String()
	for name, o := range a.Outputs {
		run.outputs[name] = substitute(o.Value)
	}
	return run
}

// parseOutputs reads a GITHUB_OUTPUT file: NAME=VALUE lines, and NAME<<DELIMITER blocks.
func parseOutputs(t *testing.T, data string) map[string]string {
	t.Helper()
	outputs := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		if k, v, ok := strings.Cut(lines[i], "="); ok && !strings.Contains(k, "<<") {
			outputs[k] = v
			continue
		}
		k, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT line %q", lines[i])
		}
		var value []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			value = append(value, lines[i])
		}
		outputs[k] = strings.Join(value, "\n")
	}
	return outputs
}

// TestActionFromCheckout runs the action from this repository as uses: ./ and as a
// release ref would: it finds the Go on PATH, builds instancetype from its own files
// (stamped with the ref when the ref is a release tag), checks, and fails or not on
// findings as asked; with no Go, or one older than go.mod asks, it sets Go up. It builds
// the command three times: slow (.ci/run runs it).
func TestActionFromCheckout(t *testing.T) {
	slow(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH to build the command with")
	}
	dir := workdir(t)

	// uses: ./ (no ref): the command is (devel); findings fail the job after annotating.
	r := runAction(t, dir, "", map[string]string{"paths": "examples/broken"}, "")
	want := []string{"Look for Go", "Build instancetype", "Check", "Fail on findings"}
	if strings.Join(r.steps, "|") != strings.Join(want, "|") || r.failed != "Fail on findings" {
		t.Errorf("steps %q, failed %q; want %q failing at the last\n%s", r.steps, r.failed, want, r.log)
	}
	if r.outputs["status"] != "1" || strings.Count(r.log, "::error file=examples/broken/") != 9 ||
		!regexp.MustCompile(`(?m)^instancetype \(devel\)$`).MatchString(r.log) {
		t.Errorf("outputs %v\n%s", r.outputs, r.log)
	}

	// uses: …@v9.8.7, sarif: the version is the tag; the log is written for the upload
	// step; fail-on-findings false passes.
	r = runAction(t, dir, "v9.8.7", map[string]string{"paths": "examples/", "format": "sarif", "fail-on-findings": "false"}, "")
	want = []string{"Look for Go", "Build instancetype", "Check", "Upload SARIF"}
	if strings.Join(r.steps, "|") != strings.Join(want, "|") || r.failed != "" {
		t.Errorf("steps %q, failed %q; want %q\n%s", r.steps, r.failed, want, r.log)
	}
	data, err := os.ReadFile(filepath.Join(dir, r.outputs["sarif-file"]))
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Version string }
			}
			Results []json.RawMessage
		}
	}
	if r.outputs["status"] != "1" || err != nil || json.Unmarshal(data, &log) != nil || len(log.Runs) != 1 ||
		log.Runs[0].Tool.Driver.Version != "9.8.7" || len(log.Runs[0].Results) == 0 ||
		!regexp.MustCompile(`(?m)^instancetype v9\.8\.7$`).MatchString(r.log) {
		t.Errorf("outputs %v, %v\n%.500s\n%s", r.outputs, err, data, r.log)
	}

	// A branch as the ref is no version; no findings, no failure.
	r = runAction(t, dir, "main", map[string]string{"paths": "examples/manifests"}, "")
	if r.failed != "" || r.outputs["status"] != "0" || !strings.Contains(r.log, "instancetype (devel)") {
		t.Errorf("ref main: failed %q, outputs %v\n%s", r.failed, r.outputs, r.log)
	}

	// No go on PATH, then a go that refuses the module (as one older than its go line
	// does): actions/setup-go is run, from the action's go.mod.
	empty := t.TempDir()
	old := t.TempDir()
	if err := os.WriteFile(filepath.Join(old, "go"), []byte("#!/bin/sh\necho 'go: go.mod requires go >= 1.26.0 (running go 1.22.0; GOTOOLCHAIN=local)' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{empty, old} {
		r = runAction(t, dir, "", map[string]string{"paths": "examples/manifests"}, path)
		if len(r.steps) < 2 || r.steps[1] != "Set up Go" {
			t.Errorf("PATH %s: steps %q\n%s", path, r.steps, r.log)
		}
	}
	a, _ := readAction(t)
	for _, s := range a.Runs.Steps {
		if s.Name == "Set up Go" && (!strings.HasPrefix(s.Uses, "actions/setup-go@") || s.With["go-version-file"] != "${{ github.action_path }}/go.mod") {
			t.Errorf("Set up Go: %+v", s)
		}
	}
}
