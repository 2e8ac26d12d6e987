package workload_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/workload"
)

var instanceTypePathTests = []struct {
	w    workload.Workload
	root *field.Path
	want string
}{
	{workload.Workload{Kind: workload.OnlineDeployment}, nil, "instance_type"},
	{workload.Workload{Kind: workload.OnlineDeployment, LegacyCompute: true}, nil, "instance_type"}, // deployments have no older form
	{workload.Workload{Kind: workload.ComputeJob}, nil, "resources.instance_type"},
	{workload.Workload{Kind: workload.ComputeJob, LegacyCompute: true}, nil, "compute.instance_type"},
	{workload.Workload{Kind: workload.ComputeJob}, field.NewPath("jobs", "train"), "jobs.train.resources.instance_type"},
	{workload.Workload{Kind: workload.OnlineDeployment}, field.NewPath("items").Index(1), "items[1].instance_type"},
	{workload.Workload{}, nil, "instance_type"}, // the zero Workload is no job
}

func TestInstanceTypePath(t *testing.T) {
	for _, tt := range instanceTypePathTests {
		if got := tt.w.InstanceTypePath(tt.root).String(); got != tt.want {
			t.Errorf("%+v.InstanceTypePath(%v) = %s; want %s", tt.w, tt.root, got, tt.want)
		}
	}
}

func TestResourcesPath(t *testing.T) {
	w := workload.Workload{Kind: workload.OnlineDeployment}
	if got, want := w.ResourcesPath(field.NewPath("deployments").Index(0)).String(), "deployments[0].resources"; got != want {
		t.Errorf("ResourcesPath(deployments[0]) = %s; want %s", got, want)
	}
}

// The kinds' values are printed by the command and must not change.
func TestKindValues(t *testing.T) {
	if workload.OnlineDeployment != "KubernetesOnlineDeployment" || workload.ComputeJob != "CommandJob" {
		t.Errorf("kinds = %q, %q; want \"KubernetesOnlineDeployment\", \"CommandJob\"", workload.OnlineDeployment, workload.ComputeJob)
	}
}
