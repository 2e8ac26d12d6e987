package azureml

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/decode"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/source"
)

// read is a file as the command reads an Azure ML file: each document recognised (a
// Kubernetes object is skipped) and read.
type read struct {
	kinds    []Kind
	results  []*Result
	docs     []*source.Document
	skipped  []string
	findings []finding
}

// finding is one problem, placed.
type finding struct {
	source.Position
	*field.Error
}

func readFile(data []byte, computes bool) *read {
	r := &read{}
	f := source.Scan(data, source.Options{Reader: source.Plain}, func(d *source.Document) bool {
		if d.Problem != nil {
			r.findings = append(r.findings, finding{d.Problem.Position, field.Invalid(nil, nil, d.Problem.Message)})
			return true
		}
		var kind Kind
		var skip string
		if _, why, _, ok := decode.Recognise(d.Value); ok && !computes {
			kind, skip = "", why
		} else if computes {
			kind, skip = RecogniseCompute(d.Value)
		} else {
			kind, skip = Recognise(d.Value)
		}
		if kind == "" {
			r.skipped = append(r.skipped, skip)
			return true
		}
		res := Read(d, kind)
		r.kinds, r.results, r.docs = append(r.kinds, kind), append(r.results, res), append(r.docs, d)
		errs := slices.Clone(res.Errors)
		for _, w := range res.Workloads {
			errs = append(errs, w.Errors...)
		}
		for _, c := range res.Computes {
			errs = append(errs, c.Errors...)
		}
		for _, e := range errs {
			at, ok := res.At[e]
			if !ok {
				at = d.PositionOf(e.Field)
			}
			r.findings = append(r.findings, finding{at, e})
		}
		return true
	})
	for _, p := range f.Problems {
		r.findings = append(r.findings, finding{p.Position, field.Invalid(nil, nil, p.Message)})
	}
	slices.SortStableFunc(r.findings, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return r
}

func (r *read) messages() string {
	var b strings.Builder
	for _, f := range r.findings {
		b.WriteString("\n\t" + f.Error.Error())
	}
	return b.String()
}

// amlReference is what azure-ai-ml 1.34.0 (the SDK under the az ml CLI v2;
// python3-azure 20260602 in Debian's unstable suite) read from each file of
// cmd/instancetype/testdata/aml, with load_job, load_online_deployment,
// load_model_batch_deployment (from azure.ai.ml.entities._load_functions: 1.34 does not
// export it, and its load_batch_deployment, of the older schema, refuses a model
// deployment's settings) or load_compute: the compute it names (as loaded: azure-ai-ml keeps an ARM id whole,
// and takes its last segment when it submits the job; for a pipeline, the named step's
// own compute or else settings.default_compute, which the step runs on), the instance
// type, the resources, and, when it refused the file, the words of its error. Recorded by
// hand from a run of those loaders on copies of the files (with the local directories
// they name created, as azure-ai-ml checks that they exist), and checked again against a
// second run on 2026-12-03: every row as it read.
//
// The test holds Read to the same reading: the same compute (by name), instance type and
// resources for each workload, and a finding of the rule named wherever azure-ai-ml
// refused the file for a reason this package checks.
var amlReference = []struct {
	file string
	// What azure-ai-ml read: its class, the compute and instance type, and resources.
	class, compute, instanceType string
	requests, limits             map[string]string // azure-ai-ml's names: cpu, memory, gpu
	// refused is a substring of azure-ai-ml's error, "" when it loaded the file.
	refused string
	// What Read makes of it: the kind of its document, or why it is skipped; the Origin
	// of the finding that matches azure-ai-ml's refusal.
	kind   Kind
	skip   string
	origin string
}{
	{file: "computes/gpu-k8s.yml", class: "KubernetesCompute", kind: KindCompute},
	{file: "computes/batch-cluster.yml", class: "AmlCompute", kind: KindCompute},
	{file: "jobs/train-k8s.yml", class: "Command", compute: "k8s-compute", instanceType: "gpu-a100", kind: KindJob},
	{file: "jobs/train-gpu-k8s.yml", class: "Command", compute: "gpu-k8s", instanceType: "gpu-a100", kind: KindJob},
	{file: "jobs/train-cpu-cluster.yml", class: "Command", compute: "cpu-cluster", kind: KindJob},
	{file: "jobs/train-serverless.yml", class: "Command", compute: "serverless", instanceType: "Standard_E4s_v3", skip: "a serverless job"},
	{file: "jobs/train-arm-id.yml", class: "Command", compute: "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s-compute",
		instanceType: "cpu-small", kind: KindJob},
	{file: "jobs/train-typo.yml", class: "Command", compute: "k8s-compte", instanceType: "cpu-small", kind: KindJob},
	{file: "jobs/spark.yml", class: "Spark", instanceType: "standard_e4s_v3", skip: "a Spark job"},
	{file: "jobs/automl.yml", class: "ClassificationJob", compute: "k8s-compute", instanceType: "cpu-small", kind: KindAutoMLJob},
	{file: "jobs/legacy-compute.yml", refused: "passed is not in set ['local']", kind: KindJob, origin: "legacy-compute-form"},
	{file: "pipelines/serverless.yml", class: "PipelineJob", compute: "k8s-compute", instanceType: "gpu-a100", kind: KindPipelineJob}, // step prep: serverless
	{file: "pipelines/spark.yml", class: "PipelineJob", compute: "k8s-compute", instanceType: "cpu-small", kind: KindPipelineJob},     // step wrangle: Spark
	{file: "pipelines/prompt.yml", class: "PipelineJob", compute: "k8s-compute", instanceType: "gpu-a10", kind: KindPipelineJob},
	{file: "deployments/k8s-gpu.yml", class: "KubernetesOnlineDeployment", instanceType: "gpu-a100",
		requests: map[string]string{"cpu": "4", "memory": "32Gi"}, limits: map[string]string{"cpu": "8", "memory": "64Gi", "gpu": "1"}, kind: KindDeployment},
	{file: "deployments/k8s-numbers.yml", refused: "Not a valid string", kind: KindDeployment, origin: "azureml-resource-type"},
	{file: "deployments/k8s-both-gpu.yml", class: "KubernetesOnlineDeployment", instanceType: "gpu-a100",
		requests: map[string]string{"cpu": "4", "memory": "32Gi"}, limits: map[string]string{"cpu": "8", "memory": "64Gi", "gpu": "2"}, kind: KindDeployment, origin: "gpu-given-twice"},
	{file: "deployments/k8s-amd.yml", refused: "Unknown field", kind: KindDeployment, origin: "azureml-resource-name"},
	{file: "batch/k8s-batch.yml", class: "ModelBatchDeployment", compute: "k8s-compute", instanceType: "cpu-small", kind: KindBatchDeployment},
	{file: "batch/cluster-batch.yml", class: "ModelBatchDeployment", compute: "batch-cluster", kind: KindBatchDeployment},
	// load_job refuses a workflow: command and environment missing, on (true) and jobs unknown.
	{file: "github/workflows/deploy.yml", refused: "Unknown field", skip: "a GitHub Actions workflow"},
}

func TestAgreesWithAzureAIML(t *testing.T) {
	dir := filepath.Join("..", "cmd", "instancetype", "testdata", "aml")
	for _, ref := range amlReference {
		data, err := os.ReadFile(filepath.Join(dir, ref.file))
		if err != nil {
			t.Fatal(err)
		}
		f := readFile(data, false)
		if ref.skip != "" {
			if len(f.results) != 0 || len(f.skipped) == 0 || !strings.Contains(f.skipped[0], ref.skip) {
				t.Errorf("%s: %d documents, skipped %v; want it skipped as %q", ref.file, len(f.results), f.skipped, ref.skip)
			}
			continue
		}
		if len(f.results) != 1 || f.kinds[0] != ref.kind {
			t.Errorf("%s: %d documents (skipped %v); want one %s", ref.file, len(f.results), f.skipped, ref.kind)
			continue
		}
		var origins []string
		for _, x := range f.findings {
			if x.Origin != "" {
				origins = append(origins, x.Origin)
			}
		}
		if ref.origin != "" && !slices.Contains(origins, ref.origin) {
			t.Errorf("%s: findings %v; want one of rule %s (azure-ai-ml: %q)", ref.file, f.messages(), ref.origin, ref.refused)
		}
		if ref.refused != "" {
			continue // what it reads of a refused file is compared in TestAzureMLResources
		}
		d := f.results[0]
		if ref.kind == KindCompute {
			if len(d.Computes) != 1 {
				t.Errorf("%s: %d computes; want 1", ref.file, len(d.Computes))
			}
			continue
		}
		// The workload azure-ai-ml reads: the last (a pipeline's steps are compared where
		// they differ: serverless and Spark steps are skipped).
		if len(d.Workloads) == 0 {
			t.Errorf("%s: no workload", ref.file)
			continue
		}
		w := d.Workloads[len(d.Workloads)-1].Workload
		if got, want := ParseCompute(w.Compute).Name, ParseCompute(ref.compute).Name; got != want {
			t.Errorf("%s: compute %q (%q); azure-ai-ml: %q", ref.file, got, w.Compute, ref.compute)
		}
		if w.InstanceType != ref.instanceType {
			t.Errorf("%s: instance type %q; azure-ai-ml: %q", ref.file, w.InstanceType, ref.instanceType)
		}
		if ref.requests != nil || ref.limits != nil {
			if w.Resources == nil {
				t.Errorf("%s: no resources", ref.file)
				continue
			}
			if got := azureNames(w.Resources.Requests); !equalMaps(got, ref.requests) {
				t.Errorf("%s: requests %v; azure-ai-ml: %v", ref.file, got, ref.requests)
			}
			if got := azureNames(w.Resources.Limits); !equalMaps(got, ref.limits) {
				t.Errorf("%s: limits %v; azure-ai-ml: %v", ref.file, got, ref.limits)
			}
		}
	}
}

// azureNames renders a resource list with azure-ai-ml's names: nvidia.com/gpu is gpu.
func azureNames(l instancetype.ResourceList) map[string]string {
	out := map[string]string{}
	for name, a := range l {
		if name == instancetype.ResourceNvidiaGPU {
			name = "gpu"
		}
		out[string(name)] = a.String()
	}
	return out
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A Kubernetes deployment's resources, as azure-ai-ml reads them (ResourceSettingsSchema:
// cpu, memory and gpu, strings; nvidia.com/gpu renamed gpu before it is read, so that of
// the two the one written last is in effect). Each case was loaded with
// load_online_deployment: what it read, or its error. The cases say type: kubernetes, as
// load_online_deployment chooses the schema by type alone: without it, it reads a file of
// the kubernetesOnlineDeployment $schema as a managed deployment and refuses its
// resources ("Unknown field"). The source document's examples have no type; this package
// reads them by their $schema.
func TestAzureMLResources(t *testing.T) {
	const head = "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\ntype: kubernetes\nname: b\nendpoint_name: e\ninstance_type: gpu-small\nresources:\n"
	for _, tt := range []struct {
		resources string
		limits    map[string]string // as read, with azure-ai-ml's names; nil: not compared
		azure     string            // azure-ai-ml's error, "" when it read the file
		origins   []string          // the findings' rules, in order
		at        []string          // the findings' fields
	}{
		{"  limits: {cpu: \"2\", memory: 4Gi, nvidia.com/gpu: \"1\"}\n", map[string]string{"cpu": "2", "memory": "4Gi", "gpu": "1"}, "", nil, nil},
		{"  limits: {cpu: \"2\", memory: 4Gi, gpu: \"1\"}\n", map[string]string{"cpu": "2", "memory": "4Gi", "gpu": "1"}, "", nil, nil},
		{"  limits:\n    nvidia.com/gpu: \"1\"\n    gpu: \"2\"\n", map[string]string{"gpu": "2"}, "", []string{"gpu-given-twice"}, []string{"resources.limits[gpu]"}},
		{"  limits:\n    gpu: \"2\"\n    nvidia.com/gpu: \"1\"\n", map[string]string{"gpu": "1"}, "", []string{"gpu-given-twice"}, []string{"resources.limits[nvidia.com/gpu]"}},
		{"  requests: {cpu: 1}\n", nil, `"cpu": ["Not a valid string."]`, []string{"azureml-resource-type"}, []string{"resources.requests[cpu]"}},
		{"  limits: {nvidia.com/gpu: 1}\n", nil, `"gpu": ["Not a valid string."]`, []string{"azureml-resource-type"}, []string{"resources.limits[nvidia.com/gpu]"}},
		{"  limits: {amd.com/gpu: \"1\"}\n", nil, `"amd.com/gpu": ["Unknown field."]`, []string{"azureml-resource-name"}, []string{"resources.limits[amd.com/gpu]"}},
		{"  requests: {cpus: \"1\"}\n", nil, `"cpus": ["Unknown field."]`, []string{"azureml-resource-name"}, []string{"resources.requests[cpus]"}},
		// What is a string is PyYAML's to say: 1e3 and 0.5e1 are, 1.5 and on are not.
		{"  limits: {cpu: 1e3, memory: 0.5e1}\n", map[string]string{"cpu": "1e3", "memory": "0.5e1"}, "", nil, nil},
		{"  limits: {cpu: 1.5}\n", nil, `"cpu": ["Not a valid string."]`, []string{"azureml-resource-type"}, []string{"resources.limits[cpu]"}},
		{"  limits: {cpu: on}\n", nil, `"cpu": ["Not a valid string."]`, []string{"azureml-resource-type"}, []string{"resources.limits[cpu]"}},
		{"  limits: {cpu: !!str 1}\n", map[string]string{"cpu": "1"}, "", nil, nil},
		{"  limits: {cpu: !!int \"1\"}\n", nil, `"cpu": ["Not a valid string."]`, []string{"azureml-resource-type"}, []string{"resources.limits[cpu]"}},
		{"  requests: {cpu: \"1\", memory: null}\n", nil, `"memory": ["Field may not be null."]`, []string{"azureml-resource-type"}, []string{"resources.requests[memory]"}},
		{"  limits: {cpu: ~, memory: \"1Gi\"}\n", nil, `"cpu": ["Field may not be null."]`, []string{"azureml-resource-type"}, []string{"resources.limits[cpu]"}},
	} {
		f := readFile([]byte(head+tt.resources), false)
		if len(f.results) != 1 {
			t.Fatalf("resources %q: %d documents", tt.resources, len(f.results))
		}
		d, doc := f.results[0], f.docs[0]
		w := d.Workloads[0].Workload
		if tt.limits != nil {
			if got := azureNames(w.Resources.Limits); !equalMaps(got, tt.limits) {
				t.Errorf("resources %q: limits %v; azure-ai-ml read %v", tt.resources, got, tt.limits)
			}
		}
		var origins, at []string
		for _, x := range f.findings {
			origins, at = append(origins, x.Origin), append(at, x.Field)
		}
		if !slices.Equal(origins, tt.origins) || !slices.Equal(at, tt.at) {
			t.Errorf("resources %q: findings %v at %v%s; want %v at %v (azure-ai-ml: %s)", tt.resources, origins, at, f.messages(), tt.origins, tt.at, tt.azure)
		}
		// A finding of validation about gpu, which it knows as nvidia.com/gpu, is placed at
		// the key as written.
		if strings.Contains(tt.resources, " gpu:") {
			path := "resources.limits[nvidia.com/gpu]"
			if alias, ok := d.Aliases[path]; ok {
				path = alias
			}
			if p := doc.PositionOf(path); p.Line <= 5 {
				t.Errorf("resources %q: nvidia.com/gpu placed at %v; want the gpu key's line", tt.resources, p)
			}
		}
	}
}

var parseComputeTests = []struct {
	in   string
	want ComputeRef
}{
	{"", ComputeRef{}},
	{"azureml:k8s-compute", ComputeRef{Name: "k8s-compute"}},
	{"k8s-compute", ComputeRef{Name: "k8s-compute"}},
	{"azureml:serverless", ComputeRef{Serverless: true}},
	{"serverless", ComputeRef{Serverless: true}},
	{"local", ComputeRef{Local: true}},
	{"${{parent.inputs.compute}}", ComputeRef{Expression: true}},
	{"azureml:/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s",
		ComputeRef{Name: "k8s", ResourceGroup: "ml-rg", Workspace: "ml-ws"}},
	{"azureml://subscriptions/s/resourcegroups/ml-rg/workspaces/ml-ws/computes/k8s", ComputeRef{Name: "k8s", ResourceGroup: "ml-rg", Workspace: "ml-ws"}},
	{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/computes/c", ComputeRef{Name: "c", ResourceGroup: "rg", Workspace: "ws"}},
	{"azureml:a/b", ComputeRef{Name: "b"}}, // as azure-ai-ml takes an id: its last segment
}

func TestParseCompute(t *testing.T) {
	for _, tt := range parseComputeTests {
		if got := ParseCompute(tt.in); got != tt.want {
			t.Errorf("ParseCompute(%q) = %+v; want %+v", tt.in, got, tt.want)
		}
	}
}

// What az ml compute list -o json prints (generated from azure-ai-ml's entities, as the CLI
// dumps them: _from_rest_object of the REST resources, then _to_dict), and the same in YAML
// (-o yaml): each compute read with its name, type and the resource group and workspace of
// its id, an AKS inference cluster the SDK does not support included.
func TestComputeList(t *testing.T) {
	for _, file := range []string{"../cmd/instancetype/testdata/aml/computes.json", "../cmd/instancetype/testdata/inputs/computes.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f := readFile(data, false)
		if len(f.findings) != 0 {
			t.Errorf("%s: findings%s", file, f.messages())
		}
		if len(f.results) != 1 {
			t.Fatalf("%s: %d documents", file, len(f.results))
		}
		d := f.results[0]
		var got []Compute
		for _, c := range d.Computes {
			got = append(got, c.Compute)
		}
		want := []Compute{
			{Name: "k8s-compute", Type: "kubernetes", ResourceGroup: "ml-rg", Workspace: "ml-ws"},
			{Name: "cpu-cluster", Type: "amlcompute", ResourceGroup: "ml-rg", Workspace: "ml-ws"},
			{Name: "dev-box", Type: "computeinstance", ResourceGroup: "ml-rg", Workspace: "ml-ws"},
			{Name: "legacy-aks", Type: "*** unsupported compute type ***", ResourceGroup: "ml-rg", Workspace: "ml-ws"},
		}
		if f.kinds[0] != KindComputeList || !slices.Equal(got, want) {
			t.Errorf("%s: %s %+v; want %+v", file, f.kinds[0], got, want)
		}
		if !got[0].Kubernetes() || got[1].Kubernetes() {
			t.Errorf("Kubernetes() wrong for %+v", got[:2])
		}
	}
}

// A file given as compute targets (RecogniseCompute) is read as compute targets: a mapping of a
// name and a type, whatever else it holds or lacks, and a list of them; anything else is
// skipped.
func TestRecogniseCompute(t *testing.T) {
	for _, tt := range []struct {
		src   string
		names []string // of the computes read, in order
	}{
		{"name: k8s\ntype: kubernetes\n", []string{"k8s"}},
		{"name: k8s\ntype: kubernetes\nidentity:\n  type: system_assigned\n", []string{"k8s"}},
		{"$schema: https://azuremlschemas.azureedge.net/latest/kubernetesCompute.schema.json\nname: k8s\ntype: kubernetes\nresource_id: /subscriptions/s\n", []string{"k8s"}},
		{"name: k8s\ntype: kubernetes\nauth_mode: key\n", []string{"k8s"}}, // among manifests, an endpoint
		{"- {name: a, type: kubernetes}\n- {name: b, type: amlcompute}\n", []string{"a", "b"}},
		{"name: a\ntype: amlcompute\n---\nname: b\ntype: kubernetes\n", []string{"a", "b"}},
		{"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\n", nil},
		{"name: a\n", nil},
		{"- {name: a}\n", nil},
		{"[]\n", nil},
	} {
		var names []string
		f := readFile([]byte(tt.src), true)
		for _, d := range f.results {
			for _, c := range d.Computes {
				names = append(names, c.Compute.Name)
			}
		}
		if !slices.Equal(names, tt.names) {
			t.Errorf("read as computes %q: computes %q; want %q", tt.src, names, tt.names)
		}
		if len(tt.names) == 0 && len(f.skipped) == 0 {
			t.Errorf("read as computes %q: nothing skipped", tt.src)
		}
	}
}
