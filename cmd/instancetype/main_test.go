package main

import (
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/lint"

	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenDir is testdata/golden, absolute: runCommand changes the working directory.
var goldenDir string

// binary is the instancetype command the tests run as a process: this test binary, which
// runs main when asCommandEnv is set (as it is for every process the tests start), so that
// no second binary has to be built and linked. main is all the command is.
var binary string

// asCommandEnv, set to 1, makes the test binary the command.
const asCommandEnv = "INSTANCETYPES_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	launchIfAsked()
	if os.Getenv(asCommandEnv) == "1" {
		main()
	}
	flag.Parse()
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	binary = self
	if goldenDir, err = filepath.Abs(filepath.Join("testdata", "golden")); err != nil {
		panic(err)
	}
	os.Setenv(asCommandEnv, "1") // for every process the tests start
	os.Exit(m.Run())
}

// slow skips a test unless INSTANCETYPES_SLOW_TESTS is set, as .ci/run sets it: the heavy
// cases of hostile input, which manifest's own tests cover in process.
func slow(t *testing.T) {
	t.Helper()
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
}

// workdir returns a temporary directory holding examples/ (the repository's) and azureml/
// (testdata/azureml: Azure ML files of every shape), so that paths in outputs are short
// and stable.
func workdir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../../examples", filepath.Join(dir, "examples"), func(p string) bool {
		return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")
	})
	copyTree(t, "testdata/azureml", filepath.Join(dir, "azureml"), func(string) bool { return true })
	copyTree(t, "testdata/inputs", filepath.Join(dir, "inputs"), func(string) bool { return true })
	copyTree(t, "testdata/aml", filepath.Join(dir, "aml"), func(string) bool { return true })
	copyTree(t, "testdata/placeholders", filepath.Join(dir, "placeholders"), func(string) bool { return true })
	copyTree(t, "testdata/configured", filepath.Join(dir, "configured"), func(string) bool { return true })
	copyTree(t, "testdata/python", filepath.Join(dir, "python"), func(string) bool { return true })
	// The root of a repository, where the search for a config file ends: no config file
	// above the temporary directory is found.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyTree(t *testing.T, from, to string, keep func(string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type result struct {
	stdout, stderr string
	code           int
}

// runCommand runs one command line in process, in dir, with stdin: what main does, without
// a process to start and link (the tests of the process itself, its standard streams and
// its exit status, use runBinary). It changes the test's working directory to dir, so the
// tests that use it run one at a time.
func runCommand(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	if dir != "." {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	code := cli.Main(args, cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return result{out.String(), errb.String(), code}
}

// runBinary runs the built command, as a process, in dir with stdin.
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
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file %s; run go test ./cmd/instancetype -update", path)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run with -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// goldenTests are command lines whose whole output is pinned in testdata/golden.
var goldenTests = []goldenTest{
	// The examples: the source document's manifests pass; the broken ones do not.
	{"validate-manifests.txt", []string{"validate", "examples/manifests"}, cli.ExitOK},
	{"validate-manifests.json", []string{"validate", "--output=json", "examples/manifests"}, cli.ExitOK},
	{"validate-broken.txt", []string{"validate", "examples/broken"}, cli.ExitFindings},
	{"validate-examples.txt", []string{"validate", "examples/"}, cli.ExitFindings},
	{"validate-examples.json", []string{"validate", "-o", "json", "examples/"}, cli.ExitFindings},
	{"validate-selector-conflict.txt", []string{"validate", "--node-selector", "mylabel=other,pool=ml", "examples/manifests"}, cli.ExitFindings},
	{"validate-selector-repeated.txt", []string{"validate", "--node-selector", "pool=ml", "--node-selector", "mylabel=other", "examples/manifests"}, cli.ExitFindings},
	{"validate-strict-subset.txt", []string{"validate", "--strict-subset", "--node-selector", "pool=ml", "examples/manifests"}, cli.ExitFindings},
	{"resolve-manifests.txt", []string{"resolve", "--node-selector", "pool=ml", "examples/manifests"}, cli.ExitOK},
	{"resolve-manifests.json", []string{"resolve", "-ojson", "--node-selector", "pool=ml", "examples/manifests"}, cli.ExitOK},
	{"resolve-examples.txt", []string{"resolve", "examples/"}, cli.ExitFindings},
	{"list-manifests.txt", []string{"list", "examples/manifests"}, cli.ExitOK},
	{"list-manifests.json", []string{"list", "-o", "json", "examples/manifests"}, cli.ExitOK},
	{"list-builtin.txt", []string{"list"}, cli.ExitOK},
	// The cluster's catalog.
	{"list-catalog.txt", []string{"list", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests"}, cli.ExitOK},
	{"validate-catalog.txt", []string{"validate", "--catalog", "examples/cluster/instancetypes.yaml", "azureml/command-job.yml", "azureml/pipeline.yml"}, cli.ExitFindings},
	{"validate-no-catalog.txt", []string{"validate", "azureml/command-job.yml", "azureml/pipeline.yml"}, cli.ExitOK},
	// The cluster's nodes.
	{"validate-nodes.txt", []string{"validate", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests", "azureml/instance_types.yaml"}, cli.ExitFindings},
	{"list-nodes.txt", []string{"list", "--nodes", "examples/cluster/nodes.yaml", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests"}, cli.ExitFindings},
	{"list-nodes.json", []string{"list", "-o", "json", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests"}, cli.ExitFindings},
	{"resolve-nodes.txt", []string{"resolve", "--nodes", "examples/cluster/nodes.yaml", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests", "azureml/online-deployment.yml", "azureml/command-job.yml"}, cli.ExitFindings},
	{"resolve-nodes.json", []string{"resolve", "-o", "json", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests"}, cli.ExitFindings},
	// Azure ML files of every shape.
	{"azureml-validate.txt", []string{"validate", "azureml/"}, cli.ExitFindings},
	{"azureml-validate.json", []string{"validate", "-o", "json", "azureml/"}, cli.ExitFindings},
	{"azureml-resolve.txt", []string{"resolve", "azureml/"}, cli.ExitFindings},
	{"azureml-resolve.json", []string{"resolve", "-o", "json", "azureml/"}, cli.ExitFindings},
	{"azureml-exclude.txt", []string{"validate", "--exclude", "legacy-*", "--exclude", "chart", "azureml/"}, cli.ExitFindings},
	// Azure ML files as the Azure ML CLI reads them (testdata/aml, in the shapes of
	// Azure/azureml-examples): compute targets, serverless and Spark jobs and steps, AutoML,
	// batch deployments, a deployment's resources in Azure ML's spellings, the older compute
	// form, a GitHub workflow, a prompt template, a Helm chart; and the taints Azure ML's
	// pods tolerate.
	{"aml-validate.txt", []string{"validate", "aml/"}, cli.ExitFindings},
	{"aml-validate.json", []string{"validate", "-o", "json", "aml/"}, cli.ExitFindings},
	{"aml-resolve.txt", []string{"resolve", "aml/"}, cli.ExitFindings},
	{"aml-resolve.json", []string{"resolve", "-o", "json", "aml/"}, cli.ExitFindings},
	{"aml-computes.txt", []string{"resolve", "--computes", "aml/computes.json", "aml/jobs", "aml/batch", "aml/pipelines"}, cli.ExitFindings},
	{"aml-computes-yaml.txt", []string{"validate", "--computes", "inputs/computes.yaml", "aml/jobs/train-cpu-cluster.yml", "aml/jobs/train-typo.yml"}, cli.ExitFindings},
	{"aml-nodes.txt", []string{"resolve", "--nodes", "aml/nodes.yaml", "aml/"}, cli.ExitFindings},
	{"aml-tolerate.txt", []string{"validate", "--nodes", "aml/nodes.yaml", "--tolerate", "ml.azure.com/compute", "--tolerate", "sku=gpu:NoSchedule", "aml/"}, cli.ExitFindings},
	// Placeholders not filled in (<name>, $VAR, ${VAR}, {{ }}, ${{parent.inputs.x}}): one
	// finding each, one for a whole unexpanded heredoc; a pipeline's compute expression
	// shown as written; the nearest name of the catalog for a name of the wrong form, never
	// an invalid one; tolerations and a namespace on an InstanceType.
	{"placeholders-validate.txt", []string{"validate", "placeholders/"}, cli.ExitFindings},
	{"placeholders-validate.json", []string{"validate", "-o", "json", "placeholders/"}, cli.ExitFindings},
	{"placeholders-resolve.txt", []string{"resolve", "placeholders/"}, cli.ExitFindings},
	{"placeholders-resolve.json", []string{"resolve", "-o", "json", "placeholders/"}, cli.ExitFindings},
	{"placeholders-form-only.txt", []string{"validate", "placeholders/angle.yml", "placeholders/heredoc.yml", "placeholders/pipeline.yml", "placeholders/typo.yml"}, cli.ExitFindings},
	{"placeholders-ignored.txt", []string{"validate", "--ignore", "placeholder", "placeholders/"}, cli.ExitFindings},
	// Python scripts and notebooks that call azure-ai-ml (testdata/python/sdk), beside the
	// YAML files they are the equivalents of (testdata/python/yaml): the same findings at
	// the values' lines, the notebook's with its cell; a serverless job and a managed
	// deployment skipped; a value not literal counted, never a finding; a directory of
	// Python files that do not use azure-ai-ml holds nothing checked; suppression comments
	// in Python: on the line, alone above it, at the top of a script or notebook.
	{"python-validate.txt", []string{"validate", "python/sdk", "python/yaml", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-validate.json", []string{"validate", "-o", "json", "python/sdk", "python/yaml", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-resolve.txt", []string{"resolve", "python/sdk", "python/yaml", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-validate.github.txt", []string{"validate", "-o", "github", "python/sdk/deploy.ipynb", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-validate.sarif", []string{"validate", "-o", "sarif", "python/sdk/deploy.ipynb", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-unrelated.txt", []string{"validate", "python/unrelated"}, cli.ExitUsage},
	{"python-suppressed.txt", []string{"validate", "python/suppressed", "python/instance_types.yaml"}, cli.ExitFindings},
	{"python-suppressed.json", []string{"validate", "-o", "json", "python/suppressed", "python/instance_types.yaml"}, cli.ExitFindings},
	// Reading as kubectl reads.
	{"reading-yaml11.txt", []string{"validate", "inputs/yaml11.yaml"}, cli.ExitFindings},
	{"reading-merges.txt", []string{"resolve", "inputs/merges.yaml"}, cli.ExitFindings},
	{"reading-anchors.txt", []string{"validate", "inputs/anchors.yaml"}, cli.ExitFindings},
	{"reading-json.txt", []string{"validate", "inputs/escapes.json", "inputs/duplicates.json"}, cli.ExitFindings},
	{"reading-null.txt", []string{"validate", "inputs/null.yaml"}, cli.ExitFindings},
	{"reading-bounds.txt", []string{"validate", "inputs/bounds.yaml"}, cli.ExitFindings},
	{"reading-list.txt", []string{"validate", "inputs/list.yaml"}, cli.ExitFindings},
	{"reading-forged.txt", []string{"validate", "inputs/forged.yaml"}, cli.ExitFindings},
	// Syntax errors at their offending tokens: a mis-indented key, a tab, an unclosed
	// quote, a flow mapping closed by ].
	{"reading-syntax.json", []string{"validate", "-o", "json", "inputs/syntax.yaml"}, cli.ExitFindings},
	{"reading-syntax.github.txt", []string{"validate", "-o", "github", "inputs/syntax.yaml"}, cli.ExitFindings},
	// resolve's table, with long paths, names and selectors, and amounts as written.
	{"resolve-long.txt", []string{"resolve", "inputs/long"}, cli.ExitFindings},
	// For CI.
	{"validate-broken.sarif", []string{"validate", "-o", "sarif", "examples/broken"}, cli.ExitFindings},
	{"validate-broken.github.txt", []string{"validate", "-o", "github", "examples/broken"}, cli.ExitFindings},
	{"validate-broken.junit.xml", []string{"validate", "-o", "junit", "examples/broken"}, cli.ExitFindings},
	{"validate-manifests.sarif", []string{"validate", "-o", "sarif", "examples/manifests"}, cli.ExitOK},
	{"validate-manifests.github.txt", []string{"validate", "-o", "github", "examples/manifests"}, cli.ExitOK},
	{"validate-manifests.junit.xml", []string{"validate", "-ojunit", "examples/manifests"}, cli.ExitOK},
	{"resolve-nodes.github.txt", []string{"resolve", "-o", "github", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests"}, cli.ExitFindings},
	// Suppression: comments, --ignore, and how each format shows what they suppressed.
	{"suppressed.txt", []string{"validate", "inputs/suppressed.yaml"}, cli.ExitFindings},
	{"suppressed.json", []string{"validate", "-o", "json", "inputs/suppressed.yaml"}, cli.ExitFindings},
	{"suppressed.sarif", []string{"validate", "-o", "sarif", "inputs/suppressed.yaml"}, cli.ExitFindings},
	{"suppressed.junit.xml", []string{"validate", "-o", "junit", "inputs/suppressed.yaml"}, cli.ExitFindings},
	{"suppressed-ignore.txt", []string{"validate", "--ignore", "R2", "--ignore", "suppression=suppressed.yaml", "inputs/suppressed.yaml"}, cli.ExitOK},
	{"suppressed-ignore-other.txt", []string{"validate", "--ignore", "R2=other/*", "inputs/suppressed.yaml"}, cli.ExitFindings},
	// The config file named by --config.
	{"configured-explicit.txt", []string{"validate", "--config", "configured/.instancetype.yaml", "configured/green.yml"}, cli.ExitFindings},
	// The rules, and shell completion.
	{"rules.txt", []string{"rules"}, cli.ExitOK},
	{"rules.json", []string{"rules", "-o", "json"}, cli.ExitOK},
	{"completion.bash", []string{"completion", "bash"}, cli.ExitOK},
	{"completion.zsh", []string{"completion", "zsh"}, cli.ExitOK},
	{"completion.fish", []string{"completion", "fish"}, cli.ExitOK},
}

type goldenTest struct {
	name string
	args []string
	code int
}

// goldenConfiguredTests run in testdata/configured, which holds a config file, or below it
// (dir).
var goldenConfiguredTests = []struct {
	goldenTest
	dir string
}{
	{goldenTest{"configured.txt", []string{"validate", "."}, cli.ExitFindings}, "configured"},
	{goldenTest{"configured.json", []string{"validate", "-o", "json", "."}, cli.ExitFindings}, "configured"},
	// Flags replace the settings of their names.
	{goldenTest{"configured-override.txt", []string{"validate", "--exclude", "cluster", "--ignore", "R6", "--node-selector", "agentpool=gpupool", "."}, cli.ExitFindings}, "configured"},
	// An empty config file instead.
	{goldenTest{"configured-none.txt", []string{"validate", "--config", "/dev/null", "."}, cli.ExitFindings}, "configured"},
	// From a subdirectory: the file's paths and patterns (exclude, ignore) are relative to
	// its directory, not to where the command runs.
	{goldenTest{"configured-subdirectory.txt", []string{"validate", "train"}, cli.ExitFindings}, filepath.Join("configured", "team")},
}

// driverVersion is the version in a SARIF log's driver, which the goldens leave out: it is
// the build's.
var driverVersion = regexp.MustCompile(`("name": "instancetype",\n\s+"version": )"[^"]*"`)

func TestGolden(t *testing.T) {
	dir := workdir(t)
	tests := make(map[string]string) // name → the directory it runs in
	all := slices.Clone(goldenTests)
	for _, tt := range goldenConfiguredTests {
		all = append(all, tt.goldenTest)
		tests[tt.name] = tt.dir
	}
	for _, tt := range all {
		t.Run(tt.name, func(t *testing.T) {
			r := runCommand(t, filepath.Join(dir, tests[tt.name]), "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit code %d; want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			out := r.stdout
			switch ext := filepath.Ext(tt.name); ext {
			case ".txt":
				out += "--- stderr\n" + r.stderr
			case ".json", ".sarif":
				if !json.Valid([]byte(r.stdout)) {
					t.Errorf("not JSON:\n%s", r.stdout)
				}
				if ext == ".json" && r.stderr != "" {
					t.Errorf("stderr with JSON output: %s", r.stderr)
				}
				if ext == ".sarif" {
					if strings.Count(r.stderr, "\n") != 1 {
						t.Errorf("stderr with SARIF output: %q; want the summary", r.stderr)
					}
					out = driverVersion.ReplaceAllString(out, `$1"VERSION"`)
				}
			case ".xml":
				if err := xml.Unmarshal([]byte(r.stdout), new(struct{})); err != nil {
					t.Errorf("not XML: %v\n%s", err, r.stdout)
				}
				if strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("stderr with JUnit output: %q; want the summary", r.stderr)
				}
			default:
				if r.stderr != "" {
					t.Errorf("stderr: %s", r.stderr)
				}
			}
			golden(t, tt.name, out)
		})
	}
}

// TestKubectlPipe runs the pipe of the command's own help, kubectl get instancetypes -o
// yaml | instancetype validate -, on what kubectl prints.
func TestKubectlPipe(t *testing.T) {
	dir := workdir(t)
	list, err := os.ReadFile(filepath.Join(dir, "examples", "cluster", "instancetypes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, string(list), "validate", "-o", "json", "-")
	golden(t, "kubectl-pipe.json", r.stdout)
	if r.code != cli.ExitOK {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	broken := strings.Replace(string(list), `cpu: "4"`, `cpu: "64"`, 1)
	r = runBinary(t, dir, broken, "validate", "-")
	golden(t, "kubectl-pipe-broken.txt", r.stdout+"--- stderr\n"+r.stderr)
	if r.code != cli.ExitFindings {
		t.Errorf("exit %d; want %d", r.code, cli.ExitFindings)
	}
	r = runBinary(t, dir, string(list), "list", "-")
	golden(t, "kubectl-pipe-list.txt", r.stdout)
}

// TestJSONContract checks the shape other programs rely on.
func TestJSONContract(t *testing.T) {
	dir := workdir(t)
	r := runCommand(t, dir, "", "validate", "-o", "json", "examples/", "azureml/")
	var v struct {
		Findings   []map[string]any `json:"findings"`
		Skipped    []map[string]any `json:"skipped"`
		Suppressed []map[string]any `json:"suppressed"`
		Summary    map[string]any   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) == 0 || len(v.Skipped) == 0 || v.Suppressed == nil {
		t.Fatalf("findings %d, skipped %d, suppressed %v; want some of each, and a list", len(v.Findings), len(v.Skipped), v.Suppressed)
	}
	for _, f := range v.Findings {
		if keys := sortedKeys(f); !slices.Equal(keys, []string{"column", "field", "file", "line", "message", "rule", "type"}) {
			t.Errorf("finding keys %v", keys)
		}
		if _, ok := lint.LookupRule(f["rule"].(string)); !ok {
			t.Errorf("finding of an unknown rule: %v", f)
		}
	}
	if keys := sortedKeys(v.Summary); !slices.Equal(keys, []string{"documents", "files", "findings", "skipped", "suppressed"}) {
		t.Errorf("summary keys %v", keys)
	}
	if v.Summary["findings"] != float64(len(v.Findings)) || v.Summary["skipped"] != float64(len(v.Skipped)) || v.Summary["suppressed"] != 0.0 {
		t.Errorf("summary %v; %d findings, %d skipped, none suppressed", v.Summary, len(v.Findings), len(v.Skipped))
	}
	for _, s := range v.Skipped {
		if keys := sortedKeys(s); !slices.Equal(keys, []string{"file", "line", "reason"}) {
			t.Errorf("skipped keys %v", keys)
		}
	}

	r = runCommand(t, dir, "", "resolve", "-o", "json", "examples/manifests/deployment.yaml")
	var p struct {
		Placements []map[string]any
		Findings   []any
		Skipped    []any
	}
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Placements) != 1 {
		t.Fatalf("placements %v", p.Placements)
	}
	got := p.Placements[0]
	if keys := sortedKeys(got); !slices.Equal(keys, []string{"compute", "file", "instanceType", "kind", "line", "name", "nodeSelector", "path", "resolved", "resources"}) {
		t.Errorf("placement keys %v", keys)
	}
	want := map[string]any{"file": "examples/manifests/deployment.yaml", "line": 1.0, "kind": "KubernetesOnlineDeployment", "name": "blue", "instanceType": "myinstancetypename", "path": ""}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("placement %s = %v; want %v", k, got[k], w)
		}
	}
	// Names are checked for form only, with no instance type given: no finding, but the
	// placement cannot hold.
	if got["resolved"] != false || p.Findings == nil || p.Skipped == nil || r.code != cli.ExitOK {
		t.Errorf("resolved %v, findings %v, skipped %v, exit %d", got["resolved"], p.Findings, p.Skipped, r.code)
	}

	// A pipeline's steps, which have no name of their own, are told apart by their paths.
	r = runCommand(t, dir, "", "resolve", "-o", "json", "azureml/pipeline.yml")
	p.Placements = nil
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatal(err)
	}
	var paths []any
	for _, pl := range p.Placements {
		paths = append(paths, pl["path"])
	}
	if want := []any{"jobs.prep", "jobs.train", "jobs.report"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("pipeline steps' paths %v; want %v", paths, want)
	}
}

// resolve's text fits 120 columns: its table, whatever the paths, names and selectors;
// findings are lines of their own, which are not cut.
func TestResolveTableFits(t *testing.T) {
	dir := workdir(t)
	finding := regexp.MustCompile(`^\S+:\d+: `)
	for _, args := range [][]string{
		{"resolve", "inputs/long"},
		{"resolve", "examples/"},
		{"resolve", "--nodes", "aml/nodes.yaml", "aml/"},
		{"resolve", "azureml/"},
	} {
		r := runCommand(t, dir, "", args...)
		for _, l := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
			if !finding.MatchString(l) && utf8.RuneCountInString(l) > 120 {
				t.Errorf("%v: a line of %d characters: %q", args, utf8.RuneCountInString(l), l)
			}
		}
	}
}

// rules -o json lists every rule of lint.Rules, in its order, with its link, and nothing else.
func TestRulesJSON(t *testing.T) {
	r := runCommand(t, ".", "", "rules", "-ojson")
	var v struct {
		Rules []map[string]any `json:"rules"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != cli.ExitOK {
		t.Fatalf("rules -o json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	want := lint.Rules()
	if len(v.Rules) != len(want) {
		t.Fatalf("rules -o json: %d rules; want %d", len(v.Rules), len(want))
	}
	for i, got := range v.Rules {
		w := map[string]any{"id": want[i].ID, "name": want[i].Name, "summary": want[i].Summary, "doc": want[i].HelpURI()}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("rules -o json: rule %d = %v; want %v", i, got, w)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func TestStdin(t *testing.T) {
	dir := workdir(t)
	data, err := os.ReadFile(filepath.Join(dir, "examples", "manifests", "my_instance_type.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, string(data), "validate", "-")
	if r.code != cli.ExitOK || r.stderr != "no problems; 1 file, 1 document checked\n" {
		t.Errorf("validate -: exit %d, stderr %q", r.code, r.stderr)
	}
	bad := strings.Replace(string(data), `cpu: "700m"`, `cpu: "0"`, 1)
	r = runBinary(t, dir, bad, "validate", "-")
	if r.code != cli.ExitFindings || !strings.Contains(r.stdout, "<stdin>:14: spec.resources.requests[cpu]: ") {
		t.Errorf("validate - (broken): exit %d, stdout %q", r.code, r.stdout)
	}
	// Standard input as the catalog.
	list, _ := os.ReadFile(filepath.Join(dir, "examples", "cluster", "instancetypes.yaml"))
	r = runBinary(t, dir, string(list), "validate", "--catalog", "-", "azureml/command-job.yml")
	if r.code != cli.ExitOK {
		t.Errorf("validate --catalog -: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A path given: stdin is not read, so a terminal or an open pipe cannot block the run.
	cmd := exec.Command(binary, "validate", "examples/manifests/my_instance_type.yaml")
	cmd.Dir = dir
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd.Stdin = pr
	if err := cmd.Run(); err != nil {
		t.Errorf("validate FILE with stdin open: %v", err)
	}
	pr.Close()
}

func TestUsageErrors(t *testing.T) {
	dir := workdir(t)
	if err := os.MkdirAll(filepath.Join(dir, "empty", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "empty", "notes.txt"), []byte("hello"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "Usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"validate"}, "no PATH given"},
		{[]string{"validate", "--bogus", "examples/"}, "flag provided but not defined: -bogus"},
		{[]string{"validate", "-o", "yaml", "examples/"}, `invalid output format "yaml"`},
		{[]string{"validate", "-oyaml", "examples/"}, `invalid output format "yaml"`},
		{[]string{"validate", "--node-selector", "pool", "examples/"}, "invalid --node-selector"},
		{[]string{"validate", "--node-selector", "bad key=x", "examples/"}, "invalid --node-selector"},
		{[]string{"validate", "--tolerate", "sku=gpu:Sometimes", "examples/"}, `invalid --tolerate "sku=gpu:Sometimes": effect "Sometimes": want NoSchedule, PreferNoSchedule or NoExecute`},
		{[]string{"validate", "--tolerate", "=x", "examples/"}, "invalid --tolerate"},
		{[]string{"validate", "--computes", "missing.json", "examples/"}, "missing.json: no such file or directory"},
		{[]string{"validate", "--node-selector", "a=1,a=2", "examples/"}, "given twice"},
		{[]string{"validate", "--node-selector", "a=1", "--node-selector", "a=2", "examples/"}, "given twice"},
		{[]string{"validate", "--exclude", "[", "examples/"}, "invalid --exclude"},
		{[]string{"validate", "--catalog", "examples/cluster"}, "give the PATHs to check too"},
		{[]string{"validate", "no/such/path.yaml"}, "no/such/path.yaml: no such file or directory"},
		{[]string{"validate", "--catalog", "no/such.yaml", "examples/"}, "no/such.yaml: no such file or directory"},
		{[]string{"validate", "empty"}, "empty: no manifest (.yaml, .yml or .json file) in this directory"},
		{[]string{"validate", "examples/manifets"}, "examples/manifets: no such file or directory"},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"version", "extra"}, "takes no arguments"},
		{[]string{"validate", "--ignore", "R99", "examples/"}, `invalid --ignore "R99": unknown rule "R99"`},
		{[]string{"validate", "--ignore", "R9=[", "examples/"}, `invalid --ignore "R9=[": bad pattern`},
		{[]string{"validate", "--ignore", "too-many-findings", "examples/"}, "cannot be suppressed"},
		{[]string{"validate", "--config", "no/such.yaml", "examples/"}, "config file: no/such.yaml: no such file or directory"},
		{[]string{"rules", "extra"}, "takes no arguments"},
		{[]string{"rules", "-o", "yaml"}, `unknown output format "yaml": want text or json`},
		{[]string{"rules", "--ignore", "R1"}, "flag provided but not defined: -ignore"},
		{[]string{"completion"}, "name one shell"},
		{[]string{"completion", "tcsh"}, `unknown shell "tcsh"`},
	}
	for _, tt := range tests {
		r := runCommand(t, dir, "", tt.args...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.args, r.code, r.stdout, r.stderr, cli.ExitUsage, tt.want)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "--help"}} {
		r := runCommand(t, ".", "", args...)
		if r.code != cli.ExitOK || !strings.Contains(r.stdout, "instancetype validate [flags] PATH...") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stdout)
		}
	}
	for _, cmd := range []string{"validate", "resolve", "list"} {
		for _, args := range [][]string{{"help", cmd}, {cmd, "--help"}, {cmd, "-h"}, {cmd, "examples/", "-help"}} {
			r := runCommand(t, ".", "", args...)
			for _, want := range []string{"Usage: instancetype " + cmd, "Examples:", "--catalog PATH", "--exclude GLOB", "--node-selector", "--ignore RULE[=GLOB]", "--config PATH", "sarif"} {
				if r.code != cli.ExitOK || !strings.Contains(r.stdout, want) {
					t.Errorf("%v: exit %d, no %q in\n%s", args, r.code, want, r.stdout)
				}
			}
		}
	}
	for _, cmd := range []string{"version", "rules", "completion"} {
		for _, args := range [][]string{{cmd, "--help"}, {"help", cmd}} {
			r := runCommand(t, ".", "", args...)
			if r.code != cli.ExitOK || !strings.HasPrefix(r.stdout, "Usage: instancetype "+cmd) {
				t.Errorf("%v: exit %d, %q", args, r.code, r.stdout)
			}
		}
	}
	r := runCommand(t, ".", "", "version")
	if r.code != cli.ExitOK || !strings.HasPrefix(r.stdout, "instancetype ") {
		t.Errorf("version: exit %d, %q", r.code, r.stdout)
	}
}

func TestFlagsAnywhere(t *testing.T) {
	dir := workdir(t)
	a := runCommand(t, dir, "", "validate", "-o", "json", "examples/")
	for _, args := range [][]string{
		{"validate", "examples/", "-o", "json"},
		{"validate", "--output", "json", "--", "examples/"},
		{"validate", "--output=json", "examples/"},
		{"validate", "-o=json", "examples/"},
		{"validate", "-ojson", "examples/"},
		{"validate", "examples/", "-ojson"},
	} {
		if b := runCommand(t, dir, "", args...); !reflect.DeepEqual(a, b) {
			t.Errorf("%v differs from validate -o json examples/", args)
		}
	}
}

// TestWalks checks directory walks as a user meets them: a dangling symlink or an
// unreadable file is a finding and the rest is still checked; a file named twice is read
// once; --exclude leaves paths out.
func TestWalks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	dir := workdir(t)
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, "charts", "x", "templates"), 0o755)
	copyTree(t, "../../examples/manifests", filepath.Join(repo, "ml"), func(string) bool { return true })
	os.WriteFile(filepath.Join(repo, "charts", "x", "templates", "it.yaml"), []byte("kind: InstanceType\nmetadata: {name: {{ .Values.name }}}\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "charts", "x", "values.yaml"), []byte("name: small\n"), 0o644)
	if err := os.Symlink("nowhere.yaml", filepath.Join(repo, "dangling.yaml")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(repo, "dir.yaml"), 0o755)
	r := runCommand(t, dir, "", "validate", "repo", "repo/ml/job.yaml", "repo/ml/./job.yaml")
	golden(t, "walk.txt", r.stdout+"--- stderr\n"+r.stderr)
	if r.code != cli.ExitFindings {
		t.Errorf("exit %d; want %d", r.code, cli.ExitFindings)
	}
	r = runCommand(t, dir, "", "validate", "--exclude", "dangling.yaml", "--exclude", "charts", "repo")
	if r.code != cli.ExitOK || r.stderr != "no problems; 5 files, 5 documents checked\n" {
		t.Errorf("with --exclude: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestForgedOutput: a key or value with a line break or a terminal escape cannot forge a
// line of text output; every finding is one line.
func TestForgedOutput(t *testing.T) {
	dir := workdir(t)
	r := runCommand(t, dir, "", "validate", "inputs/forged.yaml")
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if !strings.HasPrefix(line, "inputs/forged.yaml:") {
			t.Errorf("a line that is no finding: %q", line)
		}
		if strings.ContainsAny(line, "\x1b\r\u202e") {
			t.Errorf("a control character printed: %q", line)
		}
	}
	if n := strings.Count(r.stdout, "\n"); n < 3 {
		t.Errorf("%d findings:\n%s", n, r.stdout)
	}
}

func TestColour(t *testing.T) {
	dir := workdir(t)
	// Not a terminal: never colour.
	if r := runBinary(t, dir, "", "validate", "examples/"); strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour without a terminal")
	}
	// In process, with colour wanted.
	var out, errb bytes.Buffer
	t.Chdir(dir)
	code := cli.Main([]string{"validate", "examples/broken"}, cli.Env{Stdout: &out, Stderr: &errb, Color: true})
	if code != cli.ExitFindings || !strings.Contains(out.String(), "\x1b[1m"+"examples/broken/") {
		t.Errorf("exit %d, no colour in %q", code, out.String())
	}
	t.Setenv("NO_COLOR", "1")
	if cli.ColorWanted(os.Stdout) {
		t.Errorf("colour with NO_COLOR")
	}
}

func TestEmptyAndUnrelatedInputs(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "svc.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not: [yaml"), 0o644)
	// A file named itself is read, and skipped.
	r := runCommand(t, dir, "", "validate", "svc.yaml")
	if r.code != cli.ExitOK || r.stderr != "no problems; 1 file, 0 documents checked, 1 skipped (-o json says why)\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCommand(t, dir, "", "resolve", "svc.yaml")
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "no deployments or jobs found") {
		t.Errorf("resolve: exit %d, %q", r.code, r.stdout)
	}
	// A directory named, in which nothing is checked, is a usage error that says why, as
	// one without a manifest is.
	for _, cmd := range []string{"validate", "resolve", "list"} {
		r = runCommand(t, dir, "", cmd, ".")
		if want := "instancetype " + cmd + ": .: nothing checked in this directory: its file holds no document the tool checks, only what it skips: a Service (v1), not an InstanceType\n"; r.code != cli.ExitUsage || r.stderr != want || r.stdout != "" {
			t.Errorf("%s .: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, r.code, r.stdout, r.stderr, want)
		}
	}
}

// validate .github, where only GitHub workflows are, says that nothing was checked there,
// and exits 2; a directory in which something is checked, or found, is not one.
func TestNothingCheckedInDirectory(t *testing.T) {
	dir := workdir(t)
	gh := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(gh, 0o755); err != nil {
		t.Fatal(err)
	}
	workflow, err := os.ReadFile(filepath.Join(dir, "aml", "github", "workflows", "deploy.yml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(gh, "deploy.yml"), workflow, 0o644)
	os.WriteFile(filepath.Join(gh, "lint.yml"), workflow, 0o644)
	os.WriteFile(filepath.Join(dir, ".github", "empty.yaml"), nil, 0o644)
	for _, tt := range []struct {
		args []string
		code int
		want string // in standard error
	}{
		{[]string{"validate", ".github"}, cli.ExitUsage, ".github: nothing checked in this directory: its 3 files hold no document the tool checks, only what it skips: a GitHub Actions workflow"},
		{[]string{"validate", "-o", "json", ".github/"}, cli.ExitUsage, ".github/: nothing checked in this directory"},
		{[]string{"validate", ".github", "examples/manifests"}, cli.ExitUsage, ".github: nothing checked in this directory"},
		// A file named itself is read and skipped, as before.
		{[]string{"validate", ".github/workflows/deploy.yml"}, cli.ExitOK, "1 skipped"},
		// Beside a checked document, or with a finding, the directory was looked at.
		{[]string{"validate", "aml/github", "aml/computes"}, cli.ExitUsage, "aml/github: nothing checked in this directory"},
		{[]string{"validate", "aml"}, cli.ExitFindings, "problems"},
	} {
		r := runCommand(t, dir, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
	// A syntax error in a directory of workflows is a finding: something was looked at.
	os.WriteFile(filepath.Join(gh, "broken.yml"), []byte("on: [push\n"), 0o644)
	if r := runCommand(t, dir, "", "validate", ".github"); r.code != cli.ExitFindings || !strings.Contains(r.stdout, "YAML syntax error") {
		t.Errorf("a broken workflow: exit %d, stdout %q, stderr %q; want its finding", r.code, r.stdout, r.stderr)
	}
}

// A usage error repeats what the user gave (a flag, a path, a --node-selector value, a
// shell's name) escaped once and clipped: no raw line break or terminal escape reaches
// standard error, a huge argument makes a short message, and what is escaped reads as Go
// would quote it (want, when set, is in the message: "a\nb", not "a\\nb").
func TestUsageErrorsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--node-selector", "a=b\x1b[31m\nforged line", "x.yaml"}, ""},
		{[]string{"validate", "nope\x1b[2J\n.yaml"}, `nope\x1b[2J\n.yaml: no such file or directory`},
		{[]string{"validate", "--bogus\a\n", "x.yaml"}, ""},
		{[]string{"validate", "--exclude", "[\n", "."}, ""},
		{[]string{"valid\x1bate"}, `unknown command "valid\x1bate"`},
		{[]string{"validate", strings.Repeat("p", 100000)}, ""},
		{[]string{"completion", "a\nb"}, `unknown shell "a\nb": want bash, zsh or fish`},
		{[]string{"completion", "bash\x1b[2J\nforged line"}, `unknown shell "bash\x1b[2J\nforged line"`},
		{[]string{"completion", "\u202ehsab"}, `unknown shell "\u202ehsab"`},
		{[]string{"completion", strings.Repeat("z", 100000)}, ""},
	} {
		r := runCommand(t, dir, "", tt.args...)
		if r.code != cli.ExitUsage {
			t.Errorf("%.60q: exit %d; want %d", tt.args, r.code, cli.ExitUsage)
		}
		if strings.ContainsAny(r.stderr, "\x1b\a\u202e") || strings.Contains(r.stderr, "\nforged") || len(r.stderr) > 8<<10 {
			t.Errorf("%.60q: stderr %.300q; want one escaped, short line", tt.args, r.stderr)
		}
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%.60q: stderr %.300q; want %q in it", tt.args, r.stderr, tt.want)
		}
	}
}
