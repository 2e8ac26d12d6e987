package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/lint"
)

func TestParseConfig(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"cluster/instancetypes.yaml", "cluster/nodes.yaml", "cluster/computes.json", "other.yaml"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("a: 1\n"), 0o644)
	}
	path := filepath.Join(dir, lint.ConfigName)
	c, set := ParseConfig(path, []byte(`# the settings of CI
catalog: [cluster/instancetypes.yaml, other.yaml]
nodes: cluster/nodes.yaml
nodeSelector: {pool: ml, zone: a}
strictSubset: yes
exclude: [templates, "charts/*"]
ignore:
  - R10
  - r9=legacy/*
computes: cluster/computes.json
tolerations: [sku=gpu:NoSchedule, dedicated]
`))
	if len(c.ConfigFindings) != 0 {
		t.Fatalf("findings: %q", renderAll(c.ConfigFindings))
	}
	want := lint.Options{
		Catalog:      []lint.Input{lint.Path(filepath.Join(dir, "cluster/instancetypes.yaml")), lint.Path(filepath.Join(dir, "other.yaml"))},
		Nodes:        []lint.Input{lint.Path(filepath.Join(dir, "cluster/nodes.yaml"))},
		NodeSelector: map[string]string{"pool": "ml", "zone": "a"},
		StrictSubset: true,
		Exclude:      []string{"templates", "charts/*"},
		ExcludeDir:   dir,
		Ignore: []lint.Ignore{{Rule: "R10", Source: path + ":8"},
			{Rule: "R9", Glob: "legacy/*", Dir: dir, Source: path + ":9"}},
		Computes: []lint.Input{lint.Path(filepath.Join(dir, "cluster/computes.json"))},
		Tolerations: []cluster.Toleration{
			{Key: "sku", Value: "gpu", Effect: "NoSchedule"},
			{Key: "dedicated", Exists: true}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("parseConfig =\n%+v\nwant\n%+v", c, want)
	}
	if want := map[string]bool{"catalog": true, "nodes": true, "computes": true, "tolerate": true, "node-selector": true,
		"strict-subset": true, "exclude": true, "ignore": true}; !reflect.DeepEqual(set, want) {
		t.Errorf("settings given: %v", set)
	}

	empty, set := ParseConfig(path, []byte("# nothing set\n"))
	if !reflect.DeepEqual(empty, lint.Options{}) || len(set) != 0 {
		t.Errorf("empty config: %+v, %v", empty, set)
	}
}

// Each problem of a config file is a finding at its line, of its rule; the settings with
// problems are left out, the others kept.
func TestConfigFindings(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("a: 1\n"), 0o644)
	path := filepath.Join(dir, lint.ConfigName)
	c, _ := ParseConfig(path, []byte(`catalog: [ok.yaml, missing.yaml]
nodes: {a: b}
nodeSelector: {pool: "bad value!", zone: a}
strictSubset: maybe
exclude: ["[", ok]
ignore: [R99, R8, duplicate_key]
colour: red
tolerations: ["bad key!"]
`))
	got := []string{}
	for _, f := range c.ConfigFindings {
		got = append(got, f.Rule()+" "+strings.TrimPrefix(f.String(), path))
	}
	want := []string{
		`config :1: catalog[1]: Invalid value: "missing.yaml": cannot read "` + filepath.Join(dir, "missing.yaml") + `": no such file or directory`,
		`wrong-type :2: nodes: Invalid value: must be a list of strings, not a mapping`,
		`R4 :3: nodeSelector[pool]: Invalid value: "bad value!": `,
		`wrong-type :4: strictSubset: Invalid value: "maybe": must be a boolean, true or false, not a string`,
		`config :5: exclude[0]: Invalid value: "[": not a pattern: syntax error in pattern`,
		`config :6: ignore[0]: Invalid value: "R99": unknown rule "R99" ('instancetype rules' lists the rules)`,
		`config :6: ignore[2]: Invalid value: "duplicate_key": unknown rule "duplicate_key"; did you mean "duplicate-key"? ('instancetype rules' lists the rules)`,
		`unknown-field :7: colour: unknown field "colour"`,
		`config :8: tolerations[0]: Invalid value: "bad key!": not a toleration (KEY[=VALUE][:EFFECT]): key "bad key!"`,
	}
	if len(got) != len(want) {
		t.Fatalf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d:\n%s\nwant it to start\n%s", i, got[i], want[i])
		}
	}
	if !reflect.DeepEqual(c.Catalog, []lint.Input{lint.Path(filepath.Join(dir, "ok.yaml"))}) || !reflect.DeepEqual(c.NodeSelector, map[string]string{"zone": "a"}) ||
		!slices.Equal(c.Exclude, []string{"ok"}) || len(c.Ignore) != 1 || c.Ignore[0].Rule != "R8" || c.StrictSubset || c.Tolerations != nil {
		t.Errorf("settings kept: %+v", c)
	}

	for _, data := range []string{"a: [1\n", "- a list\n", "a: 1\n---\nb: 2\n", "ignore: [R8]\nignore: [R9]\n"} {
		c, _ := ParseConfig(path, []byte(data))
		if len(c.ConfigFindings) == 0 {
			t.Errorf("ParseConfig(%q): no finding", data)
		}
		for _, f := range c.ConfigFindings {
			if _, ok := lint.LookupRule(f.Rule()); !ok || f.File != path || f.Line < 1 {
				t.Errorf("ParseConfig(%q): finding %s of rule %q", data, f, f.Rule())
			}
		}
	}
}

// The patterns of a config file (exclude, and ignore's globs) are relative to its
// directory: from the repository's root and from a directory below it, they leave out and
// suppress the same files. The same patterns given without a directory (as flags) are
// matched against the paths as walked and as findings name them.
func TestConfigPatternsFromASubdirectory(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "sub", "deep", "old"), 0o755)
	os.WriteFile(filepath.Join(repo, lint.ConfigName), []byte("exclude: [sub/deep/old]\nignore: [R6=sub/deep/job.yml]\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "sub", "deep", "job.yml"), []byte("command: python x.py\ncompute: azureml:k8s\nresources: {instance_type: Bad_Name}\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "sub", "deep", "old", "it.yaml"), []byte(instanceType("Old_Name", okResources)), 0o644)
	check := func(dir, input string) (*lint.Report, lint.Options) {
		t.Helper()
		t.Chdir(dir)
		path, _, err := FindConfig(".")
		if err != nil || path == "" {
			t.Fatalf("FindConfig in %s = %q, %v", dir, path, err)
		}
		c, _, err := ReadConfig(path)
		if err != nil || len(c.ConfigFindings) > 0 {
			t.Fatalf("ReadConfig(%s) = %v, %v", path, c, err)
		}
		opts := lint.Options{Exclude: c.Exclude, ExcludeDir: c.ExcludeDir, Ignore: c.Ignore}
		r, err := lint.Run([]lint.Input{lint.Path(input)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r, opts
	}
	for _, tt := range []struct{ dir, input string }{
		{repo, "sub"}, {repo, "."}, {filepath.Join(repo, "sub"), "deep"}, {filepath.Join(repo, "sub", "deep"), "."},
	} {
		r, opts := check(tt.dir, tt.input)
		if len(r.Findings) != 0 || r.SuppressedCount != 1 || r.Files != 1 {
			t.Errorf("in %s, %s: findings %q, %d suppressed, %d files; want none, 1 and 1 (the old directory left out)",
				tt.dir, tt.input, renderAll(r.Findings), r.SuppressedCount, r.Files)
		}
		// Without the directories, the patterns are relative to what is walked and named.
		opts.ExcludeDir = ""
		for i := range opts.Ignore {
			opts.Ignore[i].Dir = ""
		}
		r, err := lint.Run([]lint.Input{lint.Path(tt.input)}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if fromRoot := tt.dir == repo; fromRoot != (r.SuppressedCount == 1) {
			t.Errorf("in %s, %s, as flags: %d suppressed", tt.dir, tt.input, r.SuppressedCount)
		}
	}
}

func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	// Above the repository's root: not found from inside it.
	os.WriteFile(filepath.Join(root, lint.ConfigName), []byte("{}\n"), 0o644)
	if got, _, err := FindConfig(deep); got != "" || err != nil {
		t.Errorf("FindConfig above the repository = %q, %v; want none", got, err)
	}
	os.WriteFile(filepath.Join(repo, lint.ConfigName), []byte("{}\n"), 0o644)
	if got, _, err := FindConfig(deep); got != filepath.Join(repo, lint.ConfigName) || err != nil {
		t.Errorf("FindConfig(%s) = %q, %v", deep, got, err)
	}
	t.Chdir(deep)
	if got, _, err := FindConfig("."); got != filepath.Join("..", "..", lint.ConfigName) || err != nil {
		t.Errorf(`FindConfig(".") = %q, %v; want a path relative to the working directory`, got, err)
	}
	os.WriteFile(filepath.Join(deep, lint.ConfigName), []byte("{}\n"), 0o644)
	if got, _, err := FindConfig("."); got != lint.ConfigName || err != nil {
		t.Errorf(`FindConfig(".") = %q, %v; want the nearest`, got, err)
	}
	// A walk leaves the config file out, with the reason.
	os.WriteFile(filepath.Join(deep, "it.yaml"), []byte(instanceType("a", okResources)), 0o644)
	r, err := lint.Run([]lint.Input{lint.Path(".")}, lint.Options{})
	if err != nil || r.Files != 1 || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, "config file") {
		t.Errorf("walk: %v, %d files, skipped %+v", err, r.Files, r.Skipped)
	}
}

// instanceType is an InstanceType named name with the given resources section.
func instanceType(name, resources string) string {
	return "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: " + name + "}\nspec:\n  resources:\n" + resources
}

const okResources = "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n"

// renderAll renders findings, one a string.
func renderAll(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}
