package lint_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

const cmdJob = "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: python train.py\n"

// placeholderCases: values not filled in are one finding each of rule placeholder, and a
// workload with several has one, at the first by line, which lists the others; nothing
// else is reported about them.
var placeholderCases = []struct {
	name string
	file string
	// want is each finding as RULE LINE FIELD; detail, when set, is a part of the first's.
	want   []string
	detail string
}{
	{"angle brackets", deployment("instance_type: <instance type name>\n"),
		[]string{"placeholder 4 instance_type"}, `write the name of an instance type here: "defaultinstancetype", "gpu"`},
	{"a shell variable", deployment("instance_type: $INSTANCE_TYPE\n"),
		[]string{"placeholder 4 instance_type"}, "a shell variable"},
	{"an unexpanded heredoc: one finding", deployment("instance_type: ${INSTANCE_TYPE}\nresources:\n  requests: {cpu: \"${CPU}\", memory: \"${MEMORY}\"}\n  limits: {cpu: \"${CPU}\", memory: 2Gi, nvidia.com/gpu: \"${GPUS}\"}\n"),
		[]string{"placeholder 4 instance_type"},
		"; also not filled in: resources.requests[cpu] (line 6), resources.requests[memory] (line 6), resources.limits[cpu] (line 7), resources.limits[nvidia.com/gpu] (line 7)"},
	{"resources alone", deployment("instance_type: gpu\nresources:\n  requests: {cpu: \"${CPU}\", memory: 1Gi}\n"),
		[]string{"placeholder 6 resources.requests[cpu]"}, `; write a quantity such as "500m" or "2"`},
	{"a compute and an instance type", cmdJob + "compute: azureml:<compute name>\nresources: {instance_type: $IT}\n",
		[]string{"placeholder 3 compute"}, "azureml:NAME (az ml compute list lists them); also not filled in: resources.instance_type (line 4)"},
	{"a pipeline expression", cmdJob + "compute: azureml:k8s\nresources: {instance_type: \"${{parent.inputs.it}}\"}\n",
		[]string{"placeholder 4 resources.instance_type"}, "an Azure ML expression"},
	{"a compute expression is no finding", cmdJob + "compute: ${{parent.inputs.compute}}\nresources: {instance_type: gpu}\n",
		nil, ""},
	{"a name of the wrong form", deployment("instance_type: GPU\n"),
		[]string{"R6 4 instance_type"}, `; did you mean "gpu"?`},
}

func TestPlaceholders(t *testing.T) {
	for _, tt := range placeholderCases {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, lint.Options{}, "w.yml", tt.file, "t.yaml", gpuType)
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Rule()+" "+strconv.Itoa(f.Line)+" "+f.Err.Field)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("findings:\n%s\nwant:\n%s\n(%s)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), strings.Join(renderAll(r.Findings), "\n"))
			}
			if tt.detail != "" && !strings.Contains(r.Findings[0].Err.Detail, tt.detail) {
				t.Errorf("detail:\n%s\nwant it to hold:\n%s", r.Findings[0].Err.Detail, tt.detail)
			}
			// Ignoring the rule leaves nothing else about the values.
			r = run(t, lint.Options{Ignore: []lint.Ignore{{Rule: "placeholder"}}}, "w.yml", tt.file, "t.yaml", gpuType)
			for _, f := range r.Findings {
				if f.Rule() != "R6" {
					t.Errorf("with placeholder ignored: %s", f)
				}
			}
		})
	}
}

// TestComputeExpressionShown: a compute given as a pipeline expression is the placement's
// compute, as written, of a type not known.
func TestComputeExpressionShown(t *testing.T) {
	pipeline := "$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json\ntype: pipeline\n" +
		"settings: {default_compute: \"${{parent.inputs.compute}}\"}\njobs:\n  train: {type: command, command: x, resources: {instance_type: gpu}}\n" +
		"  score: {type: command, command: x, compute: $COMPUTE, resources: {instance_type: gpu}}\n"
	r := run(t, lint.Options{}, "p.yml", pipeline, "t.yaml", gpuType)
	if len(r.Placements) != 2 {
		t.Fatalf("placements: %+v", r.Placements)
	}
	if p := r.Placements[0]; p.Compute != "${{parent.inputs.compute}}" || p.ComputeType != "" || !p.Resolved {
		t.Errorf("train: compute %q (%q), resolved %v; want the expression, of no known type, resolved", p.Compute, p.ComputeType, p.Resolved)
	}
	if p := r.Placements[1]; p.Compute != "$COMPUTE" || p.Resolved {
		t.Errorf("score: compute %q, resolved %v; want $COMPUTE, unresolved", p.Compute, p.Resolved)
	}
	if len(r.Findings) != 1 || r.Findings[0].Rule() != "placeholder" || r.Findings[0].Err.Field != "jobs.score.compute" {
		t.Errorf("findings: %s; want one placeholder at jobs.score.compute", strings.Join(renderAll(r.Findings), "\n"))
	}
}

// TestNamespaceNote: an InstanceType's metadata.namespace is a note, not a finding.
func TestNamespaceNote(t *testing.T) {
	withNS := strings.Replace(instanceType("a", okResources), "  name: a\n", "  name: a\n  namespace: azureml\n", 1)
	r := run(t, lint.Options{}, "a.yaml", withNS)
	if len(r.Findings) != 0 {
		t.Errorf("findings: %s; want none", strings.Join(renderAll(r.Findings), "\n"))
	}
	if len(r.Notes) != 1 {
		t.Fatalf("notes: %v; want one", r.Notes)
	}
	n := r.Notes[0]
	if n.File != "a.yaml" || n.Line != 5 || n.Err.Field != "metadata.namespace" || n.Type != lint.Note || n.Rule() != "" ||
		!strings.HasPrefix(n.Message(), `ignored: "azureml": an InstanceType is cluster-scoped`) {
		t.Errorf("note: %s (%s, rule %q)", n, n.Type, n.Rule())
	}
	// In a list, at the item; and a suppression comment does not touch it.
	list := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n- metadata: {name: a, namespace: x} # instancetype:ignore R1\n" +
		"  spec: {resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {cpu: \"1\", memory: 2Gi}}}\n"
	r = run(t, lint.Options{}, "l.yaml", list)
	if len(r.Notes) != 1 || r.Notes[0].Err.Field != "items[0].metadata.namespace" || r.Notes[0].Line != 4 {
		t.Errorf("notes of a list: %v", r.Notes)
	}
}

// TestTolerationsFinding: spec.tolerations is an unknown field whose finding says where
// Azure ML's tolerations come from.
func TestTolerationsFinding(t *testing.T) {
	it := instanceType("a", okResources) + "  tolerations: [{key: sku, operator: Exists}]\n"
	r := run(t, lint.Options{}, "a.yaml", it)
	if len(r.Findings) != 1 || r.Findings[0].Rule() != "unknown-field" || r.Findings[0].Err.Field != "spec.tolerations" {
		t.Fatalf("findings: %s", strings.Join(renderAll(r.Findings), "\n"))
	}
	for _, part := range []string{`unknown field "tolerations"`, "ml.azure.com/amlarc-workload", "az k8s-extension create --config nodeSelector.KEY=VALUE"} {
		if !strings.Contains(r.Findings[0].Message(), part) {
			t.Errorf("message %q lacks %q", r.Findings[0].Message(), part)
		}
	}
}
