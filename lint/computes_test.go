package lint_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/lint"
)

const (
	computeList = `[
  {"name": "k8s", "type": "kubernetes", "id": "/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s"},
  {"name": "cpu-cluster", "type": "amlcompute"}
]`
	jobOn = "command: python train.py\nresources: {instance_type: small}\ncompute: "
	small = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: small}\nspec:\n  nodeSelector: {pool: ml}\n  resources:\n    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n"
)

// A workload on a compute known not to be Kubernetes is skipped, with why; on a known
// Kubernetes compute it is checked; on an unknown one, checked with its type unknown; with
// Options.Computes, a name they lack is a finding at the compute field, with the names
// nearest it. azureml:NAME, NAME and an ARM id name the same compute.
func TestComputes(t *testing.T) {
	inputs := []string{
		"t.yaml", small,
		"on-k8s.yaml", jobOn + "azureml:k8s\n",
		"on-k8s-bare.yaml", jobOn + "k8s\n",
		"on-k8s-id.yaml", jobOn + "azureml:/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/K8S\n",
		"on-cluster.yaml", jobOn + "azureml:cpu-cluster\n",
		"typo.yaml", jobOn + "azureml:k9s\n",
		"pipeline.yaml", "type: pipeline\nsettings:\n  default_compute: azureml:cpu-clustr\njobs:\n  a: {command: x, resources: {instance_type: small}}\n  b: {command: x, compute: azureml:cpu-cluster, resources: {instance_type: small}}\n",
	}
	for _, given := range []bool{false, true} {
		opts := lint.Options{}
		in := slices.Clone(inputs)
		if given {
			opts.Computes = []lint.Input{lint.Bytes("computes.json", []byte(computeList))}
		} else {
			in = append(in, "computes.json", computeList) // among the inputs: known, but no finding for a name it lacks
		}
		r := run(t, opts, in...)
		var placed []string
		for _, p := range r.Placements {
			placed = append(placed, p.File+" "+p.Path.String()+" "+p.Compute+" "+p.ComputeType)
		}
		want := []string{
			"on-k8s.yaml <nil> k8s kubernetes", "on-k8s-bare.yaml <nil> k8s kubernetes", "on-k8s-id.yaml <nil> k8s kubernetes",
			"typo.yaml <nil> k9s ", "pipeline.yaml jobs.a cpu-clustr ",
		}
		if !reflect.DeepEqual(placed, want) {
			t.Errorf("given %v: placements %q; want %q", given, placed, want)
		}
		var skipped []string
		for _, s := range r.Skipped {
			if strings.Contains(s.Reason, "not a Kubernetes compute") {
				skipped = append(skipped, s.File+":"+s.Reason[:strings.Index(s.Reason, " runs on")])
			}
		}
		if want := []string{"on-cluster.yaml:a command job", "pipeline.yaml:pipeline step jobs.b"}; !slices.Equal(skipped, want) {
			t.Errorf("given %v: skipped %q; want %q", given, skipped, want)
		}
		got := findings(r)
		var wantFindings []string
		if given {
			wantFindings = []string{"pipeline.yaml:3: settings.default_compute: FieldValueNotFound", "typo.yaml:3: compute: FieldValueNotFound"}
		}
		if !slices.Equal(got, wantFindings) {
			t.Errorf("given %v: findings %v; want %v", given, got, wantFindings)
		}
		for _, f := range r.Findings {
			if f.Err.Origin != "compute-not-found" {
				t.Errorf("finding %s: origin %q", f, f.Err.Origin)
			}
			if f.File == "typo.yaml" && !strings.Contains(f.Err.Detail, `did you mean "k8s"?`) ||
				f.File == "pipeline.yaml" && !strings.Contains(f.Err.Detail, `did you mean "cpu-cluster"?`) {
				t.Errorf("finding %s: no did-you-mean", f)
			}
		}
		// t.yaml, four jobs and the pipeline, and computes.json when it is an input;
		// on-cluster.yaml is skipped, not checked.
		if want := map[bool]int{false: 7, true: 6}[given]; r.Documents != want {
			t.Errorf("given %v: %d documents checked; want %d", given, r.Documents, want)
		}
	}
}

// A file of Options.Computes that holds no compute target is a finding.
func TestComputesOfTheWrongShape(t *testing.T) {
	r := run(t, lint.Options{Computes: []lint.Input{lint.Bytes("c.yaml", []byte(small))}}, "j.yaml", jobOn+"k8s\n")
	if got := findings(r); len(got) != 2 || !strings.Contains(r.Findings[0].Err.Detail, "holds no Azure ML compute target") {
		t.Errorf("findings %v", got)
	}
}

const taintedNodes = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: ml-0, labels: {pool: ml}}
  spec:
    taints:
    - {key: ml.azure.com/amlarc-workload, value: "true", effect: NoSchedule}
    - {key: ml.azure.com/compute, value: k8s, effect: NoSchedule}
    - {key: ml.azure.com/workspace, value: ml-ws, effect: NoExecute}
  status: {allocatable: {cpu: "4", memory: 16Gi}}
`

// With nodes, a workload tolerates what Azure ML's pods tolerate: the workload taint, and
// the compute and workspace taints of its own compute (the workspace from the compute's
// id in Options.Computes); an instance type, no compute taint; --tolerate adds more.
func TestTolerations(t *testing.T) {
	opts := lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(taintedNodes))},
		Computes: []lint.Input{lint.Bytes("computes.json", []byte(computeList))}}
	files := []string{"t.yaml", small, "on-k8s.yaml", jobOn + "azureml:k8s\n", "on-other.yaml", jobOn + "azureml:other\n"}
	r := run(t, opts, files...)
	fits := map[string]int{}
	for _, p := range r.Placements {
		fits[p.File] = p.Fit.Fits
	}
	if fits["on-k8s.yaml"] != 1 || fits["on-other.yaml"] != 0 {
		t.Errorf("fits %v; want the job on k8s on ml-0, the other nowhere", fits)
	}
	if res, _ := r.Fit("small"); res.Fits != 0 {
		t.Errorf("the instance type fits %d nodes; want none: it tolerates no compute taint", res.Fits)
	}
	// The instance type fits nowhere, at its selector, naming the taint; the job on a
	// compute the computes lack has that finding, and its fit is the instance type's.
	var at []string
	for _, f := range r.Findings {
		at = append(at, f.File+" "+f.Err.Field)
	}
	if want := []string{"on-other.yaml compute", "t.yaml spec.nodeSelector"}; !slices.Equal(at, want) {
		t.Errorf("findings at %v; want %v", at, want)
	} else if d := r.Findings[1].Err.Detail; !strings.Contains(d, "ml.azure.com/compute=k8s:NoSchedule") || strings.Contains(d, "amlarc-workload") {
		t.Errorf("finding %s: want it to name the compute taint alone", r.Findings[1])
	}

	opts.Tolerations = []fit.Toleration{{Key: "ml.azure.com/compute", Exists: true}, {Key: "ml.azure.com/workspace", Exists: true}}
	r = run(t, opts, files...)
	if len(r.Findings) != 1 || r.Findings[0].File != "on-other.yaml" || r.Findings[0].Err.Origin != "compute-not-found" {
		t.Errorf("tolerating the compute and workspace taints: findings %v; want only other's, not among the computes", findings(r))
	}
}

// A file under a Helm chart's templates/, with a Chart.yaml beside templates/, is
// skipped whatever it holds; a templates/ directory without a Chart.yaml is no chart.
func TestChartTemplates(t *testing.T) {
	quoted := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: \"{{ .Values.name }}\"\n"
	fsys := fstest.MapFS{
		"chart/Chart.yaml":                 {Data: []byte("apiVersion: v2\nname: c\nversion: 0.1.0\n")},
		"chart/templates/it.yaml":          {Data: []byte(quoted)},
		"chart/templates/sub/it.yaml":      {Data: []byte(quoted)},
		"notachart/templates/it.yaml":      {Data: []byte(quoted)},
		"chart/charts/dep/templates/x.yml": {Data: []byte(quoted)}, // a subchart without its Chart.yaml
	}
	r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var charts []string
	for _, s := range r.Skipped {
		if strings.Contains(s.Reason, "Helm chart in") {
			charts = append(charts, s.File)
		}
	}
	if want := []string{"chart/templates/it.yaml", "chart/templates/sub/it.yaml"}; !slices.Equal(charts, want) {
		t.Errorf("skipped as chart templates %v; want %v (skipped %v)", charts, want, r.Skipped)
	}
	var found []string
	for _, f := range r.Findings {
		if !slices.Contains(found, f.File) {
			found = append(found, f.File)
		}
	}
	if want := []string{"chart/charts/dep/templates/x.yml", "notachart/templates/it.yaml"}; !slices.Equal(found, want) {
		t.Errorf("findings in %v; want the name of the files outside a chart's templates/ reported", found)
	}
}
