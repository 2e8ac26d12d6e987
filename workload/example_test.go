package workload_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/workload"
)

// The field in which a workload names its instance type depends on its kind: a job names
// it in resources.instance_type, an online deployment in instance_type.
func ExampleWorkload_InstanceTypePath() {
	step := workload.Workload{Kind: workload.ComputeJob, Name: "train", InstanceType: "gpu"}
	blue := workload.Workload{Kind: workload.OnlineDeployment, Name: "blue"}
	fmt.Println(step.Kind, step.InstanceTypePath(field.NewPath("jobs", "train")))
	fmt.Println(blue.Kind, blue.InstanceTypePath(nil))
	// Output:
	// CommandJob jobs.train.resources.instance_type
	// KubernetesOnlineDeployment instance_type
}
