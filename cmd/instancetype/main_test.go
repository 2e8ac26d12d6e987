package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/amlarc-go/instancetypes/examples"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// binary is the instancetype command, built once for all tests.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "instancetype-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "instancetype")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building instancetype: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// workdir returns a temporary directory holding examples/ (the source document's
// manifests and the broken ones), so that paths in outputs are short and stable.
func workdir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, fsys := range []fs.FS{examples.Manifests, examples.Broken} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			dst := filepath.Join(dir, "examples", filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		require.NoError(t, err)
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

// runBinary runs the built command in dir with stdin.
func runBinary(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "NO_COLOR=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{out.String(), errb.String(), code}
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./cmd/instancetype -update")
	assert.Equal(t, string(want), got, "output differs from %s (run with -update to accept)", path)
}

func TestGolden(t *testing.T) {
	seed := []string{"examples/my_instance_type.yaml", "examples/my_instance_type_list.yaml", "examples/job.yaml", "examples/deployment.yaml", "examples/deployment_resources.yaml"}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"validate-examples.txt", []string{"validate", "examples/"}, exitFindings},
		{"validate-examples.json", []string{"validate", "-o", "json", "examples/"}, exitFindings},
		{"validate-seed.txt", append([]string{"validate"}, seed...), exitOK},
		{"validate-seed.json", append([]string{"validate", "--output=json"}, seed...), exitOK},
		{"validate-selector-conflict.txt", append([]string{"validate", "--node-selector", "mylabel=other,pool=ml"}, seed...), exitFindings},
		{"validate-strict-subset.txt", append([]string{"validate", "--strict-subset", "--node-selector", "pool=ml"}, seed...), exitFindings},
		{"resolve-seed.txt", append([]string{"resolve", "--node-selector", "pool=ml"}, seed...), exitOK},
		{"resolve-seed.json", append([]string{"resolve", "-o", "json", "--node-selector", "pool=ml"}, seed...), exitOK},
		{"resolve-examples.txt", []string{"resolve", "examples/"}, exitFindings},
		{"list-seed.txt", append([]string{"list"}, seed...), exitOK},
		{"list-seed.json", append([]string{"list", "-o", "json"}, seed...), exitOK},
		{"list-builtin.txt", []string{"list"}, exitOK},
	}
	dir := workdir(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBinary(t, dir, "", tt.args...)
			assert.Equal(t, tt.code, r.code, "exit code; stderr:\n%s", r.stderr)
			out := r.stdout
			if strings.HasSuffix(tt.name, ".txt") {
				out += "--- stderr\n" + r.stderr
			} else {
				assert.True(t, json.Valid([]byte(r.stdout)), "not JSON:\n%s", r.stdout)
				assert.Empty(t, r.stderr)
			}
			golden(t, tt.name, out)
		})
	}
}

// TestJSONContract checks the shape other programs rely on (DESIGN.md §3).
func TestJSONContract(t *testing.T) {
	dir := workdir(t)
	r := runBinary(t, dir, "", "validate", "-o", "json", "examples/")
	var v struct {
		Findings []map[string]any `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
	require.NotEmpty(t, v.Findings)
	for _, f := range v.Findings {
		keys := make([]string, 0, len(f))
		for k := range f {
			keys = append(keys, k)
		}
		assert.ElementsMatch(t, []string{"file", "line", "column", "field", "type", "message"}, keys)
	}

	r = runBinary(t, dir, "", "resolve", "-o", "json", "examples/deployment.yaml")
	var p struct {
		Placements []struct {
			File, Kind, Name, InstanceType string
			Line                           int
			NodeSelector                   map[string]string
			Resources                      struct{ Requests, Limits map[string]string }
		}
		Findings []any
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &p))
	require.Len(t, p.Placements, 1)
	got := p.Placements[0]
	assert.Equal(t, "examples/deployment.yaml", got.File)
	assert.Equal(t, 1, got.Line)
	assert.Equal(t, "KubernetesOnlineDeployment", got.Kind)
	assert.Equal(t, "blue", got.Name)
	// The deployment names myinstancetypename, which is not among the inputs.
	assert.NotNil(t, p.Findings)
	assert.Equal(t, exitFindings, r.code)
}

func TestStdin(t *testing.T) {
	dir := workdir(t)
	data, err := os.ReadFile(filepath.Join(dir, "examples", "my_instance_type.yaml"))
	require.NoError(t, err)
	r := runBinary(t, dir, string(data), "validate", "-")
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "no problems; 1 file, 1 document checked\n", r.stderr)

	bad := strings.Replace(string(data), `cpu: "700m"`, `cpu: "0"`, 1)
	r = runBinary(t, dir, bad, "validate", "-")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stdout, "<stdin>:14: spec.resources.requests[cpu]: ")

	// A path given: stdin is not read, so a terminal or an open pipe cannot block the run.
	cmd := exec.Command(binary, "validate", "examples/my_instance_type.yaml")
	cmd.Dir = dir
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pw.Close()
	cmd.Stdin = pr
	require.NoError(t, cmd.Run())
	pr.Close()
}

func TestUsageErrors(t *testing.T) {
	dir := workdir(t)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "Usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"validate"}, "no PATH given"},
		{[]string{"validate", "--bogus", "examples/"}, "flag provided but not defined: -bogus"},
		{[]string{"validate", "-o", "yaml", "examples/"}, `invalid output format "yaml"`},
		{[]string{"validate", "--node-selector", "pool", "examples/"}, "invalid --node-selector"},
		{[]string{"validate", "--node-selector", "bad key=x", "examples/"}, "invalid --node-selector"},
		{[]string{"validate", "--node-selector", "a=1,a=2", "examples/"}, "given twice"},
		{[]string{"validate", "no/such/path.yaml"}, "no such file or directory"},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		r := runBinary(t, dir, "", tt.args...)
		assert.Equal(t, exitUsage, r.code, "%v", tt.args)
		assert.Contains(t, r.stderr, tt.want, "%v", tt.args)
		assert.Empty(t, r.stdout, "%v", tt.args)
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		r := runBinary(t, ".", "", args...)
		assert.Equal(t, exitOK, r.code)
		assert.Contains(t, r.stdout, "instancetype validate [flags] PATH...")
	}
	for _, cmd := range []string{"validate", "resolve", "list"} {
		for _, args := range [][]string{{"help", cmd}, {cmd, "--help"}, {cmd, "-h"}, {cmd, "examples/", "-help"}} {
			r := runBinary(t, ".", "", args...)
			assert.Equal(t, exitOK, r.code, "%v", args)
			assert.Contains(t, r.stdout, "Usage: instancetype "+cmd, "%v", args)
			assert.Contains(t, r.stdout, "Examples:", "%v", args)
		}
	}
	r := runBinary(t, ".", "", "version")
	assert.Equal(t, exitOK, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "instancetype "), r.stdout)
}

func TestFlagsAnywhere(t *testing.T) {
	dir := workdir(t)
	a := runBinary(t, dir, "", "validate", "-o", "json", "examples/")
	b := runBinary(t, dir, "", "validate", "examples/", "-o", "json")
	c := runBinary(t, dir, "", "validate", "--output", "json", "--", "examples/")
	assert.Equal(t, a, b)
	assert.Equal(t, a, c)
}

func TestColour(t *testing.T) {
	dir := workdir(t)
	// Not a terminal: never colour.
	r := runBinary(t, dir, "", "validate", "examples/")
	assert.NotContains(t, r.stdout, "\x1b[")

	// In process, with colour wanted.
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	code := run([]string{"validate", "examples/broken"}, env{stdout: &out, stderr: &errb, color: true})
	assert.Equal(t, exitFindings, code)
	assert.Contains(t, out.String(), bold+"examples/broken/")

	t.Setenv("NO_COLOR", "1")
	assert.False(t, colorWanted(os.Stdout))
}

func TestEmptyAndUnrelatedInputs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "svc.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not: [yaml"), 0o644))
	r := runBinary(t, dir, "", "validate", ".")
	assert.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Equal(t, "no problems; 1 file, 1 document checked\n", r.stderr)
	r = runBinary(t, dir, "", "resolve", ".")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "no deployments or jobs found")
}
