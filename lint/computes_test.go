package lint_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/amlarc-go/instancetypes/cluster"
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

// A Kubernetes compute file of a name and a type alone (and an identity) is a compute
// target, among the inputs and in Options.Computes: a job on it is checked, on Kubernetes.
func TestMinimalKubernetesCompute(t *testing.T) {
	const minimal = "name: k8s\ntype: kubernetes\nidentity:\n  type: system_assigned\n"
	for _, given := range []bool{false, true} {
		opts := lint.Options{}
		in := []string{"t.yaml", small, "job.yaml", jobOn + "azureml:k8s\n"}
		if given {
			opts.Computes = []lint.Input{lint.Bytes("k8s.yml", []byte(minimal))}
		} else {
			in = append(in, "k8s.yml", minimal)
		}
		r := run(t, opts, in...)
		if len(r.Findings) != 0 || len(r.Skipped) != 0 || len(r.Placements) != 1 || r.Placements[0].ComputeType != "kubernetes" {
			t.Errorf("given %v: findings %v, skipped %v, placements %+v; want the job placed on a Kubernetes compute", given, findings(r), r.Skipped, r.Placements)
		}
	}
}

// A compute target of a type Azure ML does not know (kuberentes) is a finding at its type,
// with the type meant, and its workloads are checked as on a compute of unknown type: not
// skipped as on a compute known not to be Kubernetes, and their placements say so.
func TestUnknownComputeType(t *testing.T) {
	files := map[string]string{
		"schema.yml": "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesCompute.schema.json\nname: k8s\ntype: kuberentes\nresource_id: /subscriptions/s\n",
		"bare.yml":   "name: k8s\ntype: Kuberentes\n",
		"list.json":  `[{"name": "k8s", "type": "kuberentes"}]`,
	}
	for file, src := range files {
		for _, given := range []bool{false, true} {
			opts := lint.Options{}
			in := []string{"t.yaml", small, "job.yaml", jobOn + "azureml:k8s\n"}
			if given {
				opts.Computes = []lint.Input{lint.Bytes(file, []byte(src))}
			} else {
				in = append(in, file, src)
			}
			r := run(t, opts, in...)
			if file == "list.json" && !given {
				// Among manifests, a list of computes of unknown types is no compute list.
				continue
			}
			if len(r.Placements) != 1 || r.Placements[0].Compute != "k8s" || r.Placements[0].ComputeType != "" {
				t.Errorf("%s, given %v: placements %+v, skipped %v; want the job placed, its compute's type unknown", file, given, r.Placements, r.Skipped)
			}
			if len(r.Findings) != 1 || r.Findings[0].File != file || r.Findings[0].Rule() != "compute-type" ||
				!strings.HasSuffix(r.Findings[0].Err.Field, "type") || !strings.Contains(r.Findings[0].Err.Detail, `did you mean "kubernetes"?`) {
				t.Errorf("%s, given %v: findings %q; want one of rule compute-type at its type, with the type meant", file, given, renderAll(r.Findings))
			}
		}
	}
}

// One compute given twice with two types is a finding at the type of the one replaced:
// the last given is used (Options.Computes first, then the inputs in order). Given twice
// with one type, it is no finding.
func TestComputeGivenTwice(t *testing.T) {
	opts := lint.Options{Computes: []lint.Input{lint.Bytes("computes.json", []byte(computeList))}}
	r := run(t, opts, "t.yaml", small, "job.yaml", jobOn+"azureml:k8s\n",
		"k8s.yml", "name: K8S\ntype: amlcompute\n", "same.yml", "name: cpu-cluster\ntype: AmlCompute\n")
	want := []string{"computes.json:2: [0].type: FieldValueInvalid"}
	if got := findings(r); !slices.Equal(got, want) || r.Findings[0].Rule() != "compute-conflict" ||
		!strings.Contains(r.Findings[0].Err.Detail, `given again with type "amlcompute", at k8s.yml:2, which is the one used`) {
		t.Errorf("findings %q; want %v, of rule compute-conflict, naming the one used", renderAll(r.Findings), want)
	}
	if len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, "not a Kubernetes compute") || len(r.Placements) != 0 {
		t.Errorf("skipped %v, placements %d; want the job skipped, on the amlcompute given last", r.Skipped, len(r.Placements))
	}
}

// A pipeline step that names no instance type is placed on the default instance type when
// it runs on a Kubernetes compute (or one of unknown type), as a job that names none is,
// and skipped, with why, when it runs on a compute known not to be Kubernetes.
func TestStepsWithoutInstanceType(t *testing.T) {
	pipeline := "type: pipeline\nsettings: {default_compute: azureml:k8s}\njobs:\n  prep: {command: x}\n  train: {command: x, compute: azureml:cpu-cluster}\n  score: {command: x, compute: azureml:elsewhere}\n"
	r := run(t, lint.Options{}, "p.yaml", pipeline, "computes.json", computeList)
	var placed []string
	for _, p := range r.Placements {
		placed = append(placed, p.Path.String()+" "+p.InstanceType+" "+p.ComputeType)
	}
	if want := []string{"jobs.prep defaultinstancetype kubernetes", "jobs.score defaultinstancetype "}; !slices.Equal(placed, want) {
		t.Errorf("placements %q; want %q", placed, want)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].Line != 5 || !strings.HasPrefix(r.Skipped[0].Reason, `pipeline step jobs.train runs on compute "cpu-cluster", an amlcompute`) {
		t.Errorf("skipped %v; want jobs.train, on an amlcompute cluster", r.Skipped)
	}
	if len(r.Findings) != 0 || !r.Placements[0].Resolved {
		t.Errorf("findings %v, placements %+v", findings(r), r.Placements)
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

	opts.Tolerations = []cluster.Toleration{{Key: "ml.azure.com/compute", Exists: true}, {Key: "ml.azure.com/workspace", Exists: true}}
	opts.Ignore = []lint.Ignore{{Rule: "stranded"}} // small, now on ml-0, strands its memory: not this test's business
	r = run(t, opts, files...)
	if len(r.Findings) != 1 || r.Findings[0].File != "on-other.yaml" || r.Findings[0].Err.Origin != "compute-not-found" {
		t.Errorf("tolerating the compute and workspace taints: findings %v; want only other's, not among the computes", findings(r))
	}
}

// Nodes tainted for a workspace or a resource group exclude a workload whose compute is
// named without an ARM id (and not in Options.Computes, whose ids name them): the finding
// says that the workspace is not known, and how to give it or tolerate the taint. With
// the compute's id known, the workload tolerates its own workspace's taint and fits.
func TestUnknownWorkspaceHint(t *testing.T) {
	nodes := strings.ReplaceAll(taintedNodes, "    - {key: ml.azure.com/compute, value: k8s, effect: NoSchedule}\n", "")
	smallType := strings.ReplaceAll(small, "name: small", "name: cluster-small")
	opts := lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(nodes))}, Catalog: []lint.Input{lint.Bytes("cluster.yaml", []byte(smallType))}}
	job := "command: python train.py\nresources: {instance_type: cluster-small}\ncompute: "
	r := run(t, opts, "by-name.yaml", job+"azureml:k8s\n",
		"by-id.yaml", job+"azureml:/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s\n")
	if len(r.Findings) != 1 || r.Findings[0].File != "by-name.yaml" || r.Findings[0].Rule() != "fit" {
		t.Fatalf("findings %q; want one, of fit, for the job on a compute named without its id", renderAll(r.Findings))
	}
	d := r.Findings[0].Err.Detail
	for _, want := range []string{"excluded by taints", `the workspace of compute "k8s" is not known`, "--computes", "az ml compute list -o json", "--tolerate ml.azure.com/workspace"} {
		if !strings.Contains(d, want) {
			t.Errorf("finding %q: no %q in it", d, want)
		}
	}
	if strings.Contains(d, "resource-group") {
		t.Errorf("finding %q names the resource-group taint, which no node carries", d)
	}
	// With the computes given, whose ids name the workspace: no finding.
	opts.Computes = []lint.Input{lint.Bytes("computes.json", []byte(computeList))}
	if r := run(t, opts, "by-name.yaml", job+"azureml:k8s\n"); len(r.Findings) != 0 {
		t.Errorf("with --computes: findings %q", renderAll(r.Findings))
	}
	// An instance type among the inputs is reported at itself, with what it cannot know.
	opts = lint.Options{Nodes: opts.Nodes}
	r = run(t, opts, "t.yaml", small)
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Err.Detail, "an instance type names no workspace or resource group") ||
		!strings.Contains(r.Findings[0].Err.Detail, "--tolerate ml.azure.com/workspace") {
		t.Errorf("instance type: findings %q", renderAll(r.Findings))
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
