package lint_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/lint"
)

// instanceType is an InstanceType document with the given name and resources lines.
func instanceType(name, resources string) string {
	return "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: " + name +
		"\nspec:\n  resources:\n" + resources
}

const okResources = "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n"

func run(t *testing.T, opts lint.Options, files ...string) *lint.Report {
	t.Helper()
	var in []lint.Input
	for i := 0; i+1 < len(files); i += 2 {
		in = append(in, lint.Bytes(files[i], []byte(files[i+1])))
	}
	r, err := lint.Run(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// findings renders the findings as FILE:LINE: FIELD: TYPE.
func findings(r *lint.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Err.Field, f.TypeName()))
	}
	return out
}

func TestExamples(t *testing.T) {
	r, err := lint.Run([]lint.Input{lint.FS(examples.Manifests, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 || r.Documents != 5 || len(r.Placements) != 3 || !r.NamesChecked {
		t.Errorf("examples.Manifests: %v findings, %d documents, %d placements, names checked %v", findings(r), r.Documents, len(r.Placements), r.NamesChecked)
	}
	for _, p := range r.Placements {
		if !p.Resolved || p.Fit != nil {
			t.Errorf("%s:%d: resolved %v, fit %v; want resolved, and no fit without nodes", p.File, p.Line, p.Resolved, p.Fit)
		}
	}
	r, err = lint.Run([]lint.Input{lint.FS(examples.Manifests, "."), lint.FS(examples.Broken, ".")}, lint.Options{})
	if err != nil || len(r.Findings) != 9 {
		t.Errorf("with examples.Broken: %v, %v", findings(r), err)
	}
}

// Duplicate names: the last definition is in effect in the catalog, and the finding is at
// each earlier one, naming the one in effect.
func TestDuplicatesLastInEffect(t *testing.T) {
	r := run(t, lint.Options{},
		"a.yaml", instanceType("gpu", okResources),
		"b.yaml", instanceType("gpu", "    requests: {cpu: \"2\", memory: 1Gi}\n    limits: {cpu: \"4\", memory: 2Gi}\n"))
	if got, want := findings(r), []string{"a.yaml:4: metadata.name: FieldValueDuplicate"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("findings %v; want %v", got, want)
	}
	if d := r.Findings[0].Err.Detail; !strings.Contains(d, "b.yaml:4") || !strings.Contains(d, "not in effect") {
		t.Errorf("detail %q does not name the definition in effect", d)
	}
	it, _ := r.Catalog.Get("gpu")
	if o, _ := r.Origin("gpu"); o.File != "b.yaml" || it.Spec.Resources.Limits["cpu"].String() != "4" {
		t.Errorf("in effect: %s, cpu limit %s; want b.yaml's", o.File, it.Spec.Resources.Limits["cpu"])
	}
}

// The cluster's catalog: workloads are checked against it; an input of the same name
// replaces it, and is no duplicate; without any instance type, names are not looked up.
func TestCatalog(t *testing.T) {
	cluster := lint.Bytes("cluster.yaml", []byte(instanceType("gpu", okResources)+"---\n"+instanceType("cpu", okResources)))
	deploy := "endpoint_name: e\nname: d\ninstance_type: gpu\n---\nendpoint_name: e\nname: x\ninstance_type: gpux\n"
	r, err := lint.Run([]lint.Input{lint.Bytes("d.yaml", []byte(deploy)), lint.Bytes("gpu.yaml", []byte(instanceType("gpu", okResources)))},
		lint.Options{Catalog: []lint.Input{cluster}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := findings(r), []string{"d.yaml:7: instance_type: FieldValueNotFound"}; !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}
	if o, _ := r.Origin("gpu"); o.File != "gpu.yaml" || o.Cluster {
		t.Errorf("gpu from %+v; want gpu.yaml", o)
	}
	if o, _ := r.Origin("cpu"); o.File != "cluster.yaml" || !o.Cluster {
		t.Errorf("cpu from %+v; want the cluster's", o)
	}

	r = run(t, lint.Options{}, "d.yaml", deploy)
	if len(r.Findings) != 0 || r.NamesChecked || r.Placements[0].Resolved {
		t.Errorf("without instance types: %v, names checked %v, resolved %v", findings(r), r.NamesChecked, r.Placements[0].Resolved)
	}
	r = run(t, lint.Options{}, "d.yaml", "endpoint_name: e\ntype: kubernetes\ninstance_type: Standard_DS3_v2\n")
	if got := findings(r); len(got) != 1 || !strings.Contains(r.Findings[0].Err.Detail, "Azure VM size") {
		t.Errorf("a VM size without instance types: %v", got)
	}
}

// One mistake, one finding: an amount of an instance type with a finding of its own caps
// no workload; a duplicate key hides no finding about the value in effect; a value that
// decoding refused gets no second finding from validation.
func TestOneMistakeOneFinding(t *testing.T) {
	r := run(t, lint.Options{},
		"t.yaml", instanceType("zero", "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"0\", memory: 2Gi, nvidia.com/gpu: \"1.5\"}\n"),
		"d.yaml", "endpoint_name: e\ninstance_type: zero\nresources:\n  requests: {cpu: 100m, memory: 1Gi}\n  limits: {cpu: \"1\", memory: 1Gi, nvidia.com/gpu: \"2\"}\n")
	want := []string{
		"t.yaml:8: spec.resources.limits[cpu]: FieldValueInvalid",
		"t.yaml:8: spec.resources.limits[nvidia.com/gpu]: FieldValueInvalid",
	}
	if got := findings(r); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}

	r = run(t, lint.Options{}, "t.yaml", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: ok-name\n  name: Bad_Name\nspec:\n  resources:\n"+okResources)
	want = []string{"t.yaml:5: metadata.name: FieldValueDuplicate", "t.yaml:5: metadata.name: FieldValueInvalid"}
	if got := findings(r); !reflect.DeepEqual(got, want) {
		t.Errorf("duplicate key: findings %v; want %v", got, want)
	}

	r = run(t, lint.Options{}, "t.yaml", instanceType("typed", "    requests: {cpu: true, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n"))
	if got, want := findings(r), []string{"t.yaml:7: spec.resources.requests[cpu]: FieldValueTypeInvalid"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a boolean cpu: findings %v; want %v (no Required as well)", got, want)
	}
}

// Partial limits: a deployment's limits are completed from its instance type's.
func TestPartialLimits(t *testing.T) {
	r := run(t, lint.Options{},
		"t.yaml", instanceType("cpu", "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"2\", memory: 4Gi, nvidia.com/gpu: 1}\n"),
		"d.yaml", "endpoint_name: e\ninstance_type: cpu\nresources:\n  requests: {cpu: 100m, memory: 1Gi}\n  limits: {cpu: \"1\"}\n")
	p := r.Placements[0]
	limits := p.Limits()
	if len(r.Findings) != 0 || limits["cpu"].String() != "1" || limits["memory"].String() != "4Gi" || limits["nvidia.com/gpu"].String() != "1" {
		t.Errorf("limits %v, findings %v; want cpu 1 and the type's memory and GPU", limits, findings(r))
	}
}

// The findings of one file are capped, the first ones by line kept and the rest counted.
func TestMaxFindings(t *testing.T) {
	var b strings.Builder
	for range 10 {
		b.WriteString("---\nkind: InstanceType\napiVersion: amlarc.azureml.com/v1alpha1\nmetadata: {name: Bad}\nspec: {resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}\n")
	}
	// Ten invalid names, nine of them also duplicates of the last.
	r := run(t, lint.Options{MaxFindings: 4}, "many.yaml", b.String(), "other.yaml", instanceType("Other", okResources))
	got := findings(r)
	if len(got) != 6 || !strings.HasSuffix(got[4], ": TooManyFindings") || r.Findings[3].Line > r.Findings[4].Line {
		t.Fatalf("findings %v; want 4, a count, and other.yaml's", got)
	}
	if !strings.HasPrefix(r.Findings[4].Message(), "15 more findings") {
		t.Errorf("count finding %q", r.Findings[4].Message())
	}
	if r := run(t, lint.Options{MaxFindings: -1}, "many.yaml", b.String()); len(r.Findings) != 19 {
		t.Errorf("no limit: %d findings; want 19", len(r.Findings))
	}
}

// A file read also as the cluster's instance types or nodes has one cap, whose count comes
// after all its findings, and a problem of reading it is reported once.
func TestMaxFindingsAcrossReadings(t *testing.T) {
	var b strings.Builder
	for range 10 {
		b.WriteString("---\nkind: InstanceType\napiVersion: amlarc.azureml.com/v1alpha1\nmetadata: {name: Bad, x: 1}\nspec: {resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}\n")
	}
	b.WriteString("---\nkind: [oops\n") // a syntax error, on the last line
	data := []byte(b.String())
	in := func() []lint.Input { return []lint.Input{lint.Bytes("many.yaml", data)} }

	alone, err := lint.Run(in(), lint.Options{MaxFindings: -1})
	if err != nil {
		t.Fatal(err)
	}
	twice, err := lint.Run(in(), lint.Options{MaxFindings: -1, Catalog: in()})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := findings(alone), findings(twice); !reflect.DeepEqual(a, b) {
		t.Errorf("as input and catalog: findings %v; want those of the input alone, %v", b, a)
	}

	for _, opts := range []lint.Options{
		{MaxFindings: 4, Catalog: in()},
		{MaxFindings: 4, Nodes: in()},
		{MaxFindings: 4, Catalog: in(), Nodes: in()},
	} {
		r, err := lint.Run(in(), opts)
		if err != nil {
			t.Fatal(err)
		}
		got := findings(r)
		if len(got) != 5 {
			t.Errorf("catalog %v, nodes %v: findings %v; want 4 and a count", opts.Catalog != nil, opts.Nodes != nil, got)
			continue
		}
		last := r.Findings[4]
		if last.Type != "TooManyFindings" || last.Line < r.Findings[3].Line {
			t.Errorf("catalog %v, nodes %v: findings %v; want the count last, at the last line shown", opts.Catalog != nil, opts.Nodes != nil, got)
		}
	}

	// A file only read as nodes is capped too.
	r, err := lint.Run([]lint.Input{lint.Bytes("other.yaml", []byte(instanceType("other", okResources)))}, lint.Options{MaxFindings: 2, Nodes: in()})
	if err != nil {
		t.Fatal(err)
	}
	var many []string
	for _, f := range r.Findings {
		if f.File == "many.yaml" {
			many = append(many, f.TypeName())
		}
	}
	if len(many) != 3 || many[2] != "TooManyFindings" {
		t.Errorf("many.yaml as nodes: findings %v; want 2 and a count", many)
	}
}

// Files are read in parallel; the report does not depend on it.
func TestDeterministic(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 40 {
		fsys[fmt.Sprintf("d%02d/types.yaml", i)] = &fstest.MapFile{Data: []byte(instanceType(fmt.Sprintf("t%d", i%7), okResources))}
		fsys[fmt.Sprintf("d%02d/deploy.yaml", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("endpoint_name: e\nname: d%d\ninstance_type: t%d\n", i, i%9))}
	}
	first, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, _ := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
		if !reflect.DeepEqual(findings(first), findings(again)) || len(first.Placements) != len(again.Placements) {
			t.Fatal("two runs differ")
		}
		for i := range first.Placements {
			if first.Placements[i].File != again.Placements[i].File || first.Placements[i].Resolved != again.Placements[i].Resolved {
				t.Fatal("two runs differ in their placements")
			}
		}
	}
	if len(first.Findings) != 33+8 { // 8 deployments name t7 or t8; 33 earlier definitions of t0..t6
		t.Errorf("%d findings", len(first.Findings))
	}
}

// Inputs as a user names them: a missing path or an empty directory is an error; a file
// named twice is read once; excluded paths are left out of walks; an unreadable file is a
// finding.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ml/types.yaml", instanceType("a", okResources))
	write("ml/templates/x.yaml", instanceType("Bad", okResources))
	write("empty/readme.md", "hello")
	if _, err := lint.Run([]lint.Input{lint.Path(filepath.Join(dir, "nope"))}, lint.Options{}); err == nil {
		t.Error("a missing path is no error")
	}
	if _, err := lint.Run([]lint.Input{lint.Path(filepath.Join(dir, "empty"))}, lint.Options{}); err == nil || !strings.Contains(err.Error(), "no manifest") {
		t.Errorf("an empty directory: %v", err)
	}
	if _, err := lint.Run([]lint.Input{lint.Path(dir)}, lint.Options{Exclude: []string{"["}}); err == nil {
		t.Error("a bad pattern is no error")
	}
	ml := filepath.Join(dir, "ml")
	r, err := lint.Run([]lint.Input{lint.Path(ml), lint.Path(filepath.Join(ml, "types.yaml"))}, lint.Options{Exclude: []string{"templates"}})
	if err != nil || r.Files != 1 || len(r.Findings) != 0 {
		t.Errorf("ml, ml/types.yaml, excluding templates: %d files, %v, %v", r.Files, findings(r), err)
	}
	if err := os.Symlink("gone.yaml", filepath.Join(ml, "dangling.yaml")); err == nil {
		r, _ := lint.Run([]lint.Input{lint.Path(ml)}, lint.Options{})
		if got := findings(r); len(got) != 2 || !strings.HasSuffix(got[0], ": UnreadableFile") {
			t.Errorf("a dangling symlink: %v", got)
		}
	}
}

// With nodes, an instance type that fits no node is a finding at its selector or its
// requests, and every placement says how many nodes it fits.
func TestNodes(t *testing.T) {
	nodes := `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {pool: cpu}}
  status: {allocatable: {cpu: "4", memory: 16Gi}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2, labels: {pool: cpu}}
  status: {allocatable: {cpu: "4", memory: 16Gi}}
- apiVersion: v1
  kind: Node
  metadata: {name: n3, labels: {pool: gpu}}
  spec: {taints: [{key: sku, value: gpu, effect: NoSchedule}]}
  status: {allocatable: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "1"}}
`
	opts := lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(nodes))}}
	r := run(t, opts,
		"types.yaml", instanceType("small", okResources)+"  nodeSelector: {pool: cpu}\n---\n"+
			instanceType("huge", "    requests: {cpu: \"2\", memory: 32Gi}\n    limits: {cpu: \"2\", memory: 32Gi}\n")+"---\n"+
			instanceType("gpu", okResources)+"  nodeSelector: {pool: gpu}\n",
		"d.yaml", "endpoint_name: e\ninstance_type: small\nresources:\n  requests: {cpu: \"6\", memory: 1Gi}\n")
	want := []string{
		"d.yaml:4: resources.requests[cpu]: FieldValueInvalid",
		// small (500m, 1Gi) fits 7 pods on a node of 4 cores, leaving 52% of its memory
		// (rule stranded).
		"types.yaml:7: spec.resources.requests[memory]: FieldValueInvalid",
		"types.yaml:17: spec.resources.requests[memory]: FieldValueInvalid",
		"types.yaml:28: spec.nodeSelector: FieldValueInvalid",
	}
	if got := findings(r); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}
	if r.Nodes != 3 {
		t.Errorf("%d nodes", r.Nodes)
	}
	for name, fits := range map[string]int{"small": 2, "huge": 0, "gpu": 0, "defaultinstancetype": 2} {
		if res, ok := r.Fit(name); !ok || res.Fits != fits {
			t.Errorf("Fit(%s) = %+v, %v; want %d", name, res, ok, fits)
		}
	}
	if p := r.Placements[0]; p.Fit == nil || p.Fit.Fits != 0 || p.Resolved {
		t.Errorf("placement fit %v, resolved %v; want it to fit no node, and not be resolved", p.Fit, p.Resolved)
	}
	// Bad nodes are findings in the nodes' file, never a crash.
	r = run(t, lint.Options{Nodes: []lint.Input{lint.Bytes("bad.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: x}\nspec: {unschedulable: maybe}\nstatus: {allocatable: {cpu: lots}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: x}\n"))}},
		"types.yaml", instanceType("small", okResources))
	want = []string{
		"bad.yaml:3: metadata.name: FieldValueDuplicate",
		"bad.yaml:4: spec.unschedulable: FieldValueTypeInvalid",
		"bad.yaml:5: status.allocatable[cpu]: FieldValueInvalid",
		"bad.yaml:7: status.allocatable: FieldValueRequired",
		// The only node offers nothing valid: neither request is covered.
		"types.yaml:7: spec.resources.requests[cpu]: FieldValueInvalid",
		"types.yaml:7: spec.resources.requests[memory]: FieldValueInvalid",
	}
	if got := findings(r); !reflect.DeepEqual(got, want) {
		t.Errorf("bad nodes: findings %v; want %v", got, want)
	}
}

// A long list is read in parts, each item's tree released once its part is checked: the
// findings of every part, and of the list itself, keep their lines, and duplicates across
// parts are found.
func TestLongListInParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	var want []string
	line := 4
	for i := range 1000 {
		name, cpu := fmt.Sprintf("t%d", i), "500m"
		switch i {
		case 0, 255, 256, 700, 999:
			cpu = "0"
			want = append(want, fmt.Sprintf("list.yaml:%d: items[%d].spec.resources.requests[cpu]: FieldValueInvalid", line+4, i))
		case 512:
			name = "t3" // a duplicate of item 3, in another part: item 3 is not in effect
			// sorted after item 0's finding
			want = append(want[:1:1], append([]string{"list.yaml:23: items[3].metadata.name: FieldValueDuplicate"}, want[1:]...)...)
		}
		fmt.Fprintf(&b, "- metadata:\n    name: %s\n  spec:\n    resources:\n      requests: {cpu: %q, memory: 1Gi}\n      limits: {cpu: \"1\", memory: 2Gi}\n", name, cpu)
		line += 6
	}
	b.WriteString("extra: 1\n")
	want = append(want, fmt.Sprintf("list.yaml:%d: extra: UnknownField", line))
	r := run(t, lint.Options{}, "list.yaml", b.String())
	if got := findings(r); !reflect.DeepEqual(got, want) {
		t.Errorf("findings\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if r.Documents != 1 || r.Catalog.Len() != 1000 {
		t.Errorf("%d documents, %d in the catalog; want 1 and 1000 (999 and the default)", r.Documents, r.Catalog.Len())
	}
}

// deniedFS is a file system of one regular file that cannot be opened.
type deniedFS struct{}

func (deniedFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
}

func (deniedFS) Stat(name string) (fs.FileInfo, error) {
	return fstest.MapFS{name: &fstest.MapFile{Data: []byte("x"), Mode: 0o000}}.Stat(name)
}

// A file named as an input that cannot be opened is an error, as a missing one is (the
// command's exit status 2), whoever runs the check: root reads an OS file without read
// permission, so this uses an fs.FS that refuses.
func TestUnopenableNamedInput(t *testing.T) {
	_, err := lint.Run([]lint.Input{lint.FS(deniedFS{}, "types.yaml")}, lint.Options{})
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Run = %v; want a permission error", err)
	}
}

// unlistableFS is a file system whose directory "locked" cannot be listed, as a directory
// without read permission (mode 000, or execute-only) cannot.
type unlistableFS struct{ fstest.MapFS }

func (f unlistableFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "locked" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

// A directory named as an input that cannot be read is an error, as a file is (the
// command's exit status 2), whoever runs the check: root lists an OS directory without
// read permission, so this uses an fs.FS that refuses. Met in a walk, it is a finding, and
// the walk goes on.
func TestUnreadableNamedDirectory(t *testing.T) {
	fsys := unlistableFS{fstest.MapFS{
		"locked/types.yaml": {Data: []byte(instanceType("a", okResources))},
		"open/types.yaml":   {Data: []byte(instanceType("b", okResources))},
	}}
	_, err := lint.Run([]lint.Input{lint.FS(fsys, "locked")}, lint.Options{})
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrPermission) || !errors.As(err, &pe) || pe.Path != "locked" {
		t.Errorf("Run(locked) = %v; want a permission error naming locked", err)
	}
	r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil || r.Files != 2 || len(r.Findings) != 1 || r.Findings[0].File != "locked" || r.Findings[0].TypeName() != "UnreadableFile" {
		t.Errorf("Run(.) = %v, %v; want one UnreadableFile finding at locked, and open/types.yaml read", err, findings(r))
	}
}

// Past its budget for the workloads it keeps until the catalog is formed, a run reads the
// files that hold the rest a second time: the report is the same either way, every file,
// a reader's included, checked.
func TestWorkloadsPastTheBudget(t *testing.T) {
	deployments := func(n int, typ string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "---\nendpoint_name: e\nname: d%d\ninstance_type: %s\nresources:\n  requests: {cpu: %dm, memory: 1Gi}\n", i, typ, 100*(i%30))
		}
		return b.String()
	}
	inputs := func() []lint.Input {
		return []lint.Input{
			lint.Bytes("a.yaml", []byte(deployments(40, "small"))),
			lint.Reader("b.yaml", strings.NewReader(deployments(40, "nosuch"))),
			lint.Bytes("types.yaml", []byte(instanceType("small", okResources))),
			lint.Bytes("c.yaml", []byte(deployments(40, "small"))),
		}
	}
	want, err := lint.Run(inputs(), lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lint.SetMaxPending(1000)()
	got, err := lint.Run(inputs(), lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(findings(got), findings(want)) || len(want.Findings) < 40 {
		t.Errorf("past the budget: findings %v\nwithin it: %v", findings(got), findings(want))
	}
	if len(got.Placements) != 120 || got.Workloads != 120 || len(want.Placements) != 120 {
		t.Fatalf("placements %d and %d, workloads %d; want 120", len(got.Placements), len(want.Placements), got.Workloads)
	}
	for i := range got.Placements {
		g, w := got.Placements[i], want.Placements[i]
		if g.File != w.File || g.Line != w.Line || g.Resolved != w.Resolved || g.InstanceType != w.InstanceType {
			t.Errorf("placement %d: %s:%d %s %v; within the budget %s:%d %s %v", i, g.File, g.Line, g.InstanceType, g.Resolved, w.File, w.Line, w.InstanceType, w.Resolved)
		}
	}
}

// An input that cannot be read at all (a nil reader or fs.FS, in any list, or the zero
// Input) is an error of Run that names it, not a panic.
func TestUnusableInputs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		inputs []lint.Input
		opts   lint.Options
		want   string
	}{
		{"nil reader", []lint.Input{lint.Reader("in.yaml", nil)}, lint.Options{}, `input "in.yaml": nil io.Reader`},
		{"nil stdin", []lint.Input{lint.Stdin(nil)}, lint.Options{}, `input "<stdin>": nil io.Reader`},
		{"nil fs.FS", []lint.Input{lint.FS(nil, ".")}, lint.Options{}, `input ".": nil fs.FS`},
		{"nil fs.FS in the catalog", nil, lint.Options{Catalog: []lint.Input{lint.FS(nil, "types")}}, `input "types": nil fs.FS`},
		{"nil reader of nodes", nil, lint.Options{Nodes: []lint.Input{lint.Reader("nodes", nil)}}, `input "nodes": nil io.Reader`},
		{"nil reader of computes", nil, lint.Options{Computes: []lint.Input{lint.Reader("computes", nil)}}, `input "computes": nil io.Reader`},
		{"zero input", []lint.Input{{}}, lint.Options{}, "an input's path is empty"},
	} {
		r, err := lint.Run(tt.inputs, tt.opts)
		switch {
		case err == nil:
			t.Errorf("%s: no error (report %+v)", tt.name, r)
		case tt.want != "" && err.Error() != tt.want:
			t.Errorf("%s: %q; want %q", tt.name, err, tt.want)
		}
	}
}

// A directory named as an input in which nothing is checked (GitHub workflows only, empty
// files) is an error that says why, as one with no manifest is; a file named itself is
// skipped, and a directory in which something is checked or found is read.
func TestNothingCheckedInDirectory(t *testing.T) {
	workflow := []byte("on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{run: make}]\n")
	fsys := fstest.MapFS{
		".github/workflows/ci.yml": {Data: workflow},
		".github/empty.yaml":       {Data: nil},
		"types/t.yaml":             {Data: []byte(instanceType("a", okResources))},
		"mixed/ci.yml":             {Data: workflow},
		"mixed/broken.yaml":        {Data: []byte("a: [\n")},
	}
	_, err := lint.Run([]lint.Input{lint.FS(fsys, ".github")}, lint.Options{})
	if err == nil || !strings.Contains(err.Error(), ".github: nothing checked in this directory: its 2 files hold no document the tool checks, only what it skips: a GitHub Actions workflow") {
		t.Errorf("Run(.github) error %v; want nothing checked, and why", err)
	}
	if _, err := lint.Run([]lint.Input{lint.FS(fsys, "types"), lint.FS(fsys, ".github")}, lint.Options{}); err == nil {
		t.Error("Run(types, .github): no error; want one for .github")
	}
	for _, in := range [][]lint.Input{
		{lint.FS(fsys, ".github/workflows/ci.yml")},
		{lint.FS(fsys, "mixed")},
		{lint.FS(fsys, ".")},
	} {
		if _, err := lint.Run(in, lint.Options{}); err != nil {
			t.Errorf("Run(%v): %v; want no error", in, err)
		}
	}
}
