package workload

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// Kind is the kind of an Azure ML workload that selects an instance type.
type Kind string

// The workload kinds. Their values name the schemas of the Azure ML CLI v2 that define
// them; outputs print them as they are.
const (
	// OnlineDeployment is a Kubernetes online deployment
	// (kubernetesOnlineDeployment.schema.json). It names its instance type in
	// instance_type and may carry its own resources section.
	OnlineDeployment Kind = "KubernetesOnlineDeployment"
	// ComputeJob is anything run as a job on a compute target that names its instance
	// type in resources.instance_type and has no resources section of its own: a command
	// job (commandJob.schema.json), a sweep or AutoML job, a pipeline step, a batch
	// deployment.
	ComputeJob Kind = "CommandJob"
)

// Workload is what resolution and validation need to know of a training job or an online
// deployment.
type Workload struct {
	// Kind says whether this is an online deployment or a job.
	Kind Kind
	// Name is the workload's name field, "" if it has none.
	Name string
	// InstanceType is the instance type the workload names; "" means none, so
	// instancetype.DefaultName applies.
	InstanceType string
	// Resources is an online deployment's own resources section, nil when it has none. A
	// job has none: it gets its instance type's resources, and resolve.Resolve ignores
	// Resources for one.
	Resources *instancetype.ResourceRequirements
	// MLflow reports an MLflow model deployment (model.type: mlflow_model), which needs
	// requests of at least 2 cpu and 4G of memory.
	MLflow bool
	// LegacyCompute reports a job that names its instance type in compute.instance_type,
	// the older form of the AML-Kubernetes job (compute: {target, instance_type}), rather
	// than in resources.instance_type.
	LegacyCompute bool
	// Compute is the compute target the workload runs on, as written (azureml:NAME, NAME,
	// an ARM id): its own compute (compute.target in the older form), or, for a pipeline
	// step without one, the pipeline's settings.default_compute. "" when it names none
	// where it is written: an online deployment runs on its endpoint's compute.
	// resolve.Resolve does not read it; a caller that knows the workspace's computes does.
	Compute string
	// ComputePath is the path, in the workload's document, of the field Compute is
	// written in (jobs.train.compute, settings.default_compute), nil when Compute is "".
	ComputePath *field.Path
}

// InstanceTypePath returns the path, below root, of the field in which the workload names
// its instance type: instance_type for an online deployment, resources.instance_type for a
// job, or compute.instance_type for a job in the older form (LegacyCompute).
func (w *Workload) InstanceTypePath(root *field.Path) *field.Path {
	switch {
	case w.Kind == ComputeJob && w.LegacyCompute:
		return root.Child("compute", "instance_type")
	case w.Kind == ComputeJob:
		return root.Child("resources", "instance_type")
	}
	return root.Child("instance_type")
}

// ResourcesPath returns the path, below root, of an online deployment's resources section.
func (w *Workload) ResourcesPath(root *field.Path) *field.Path {
	return root.Child("resources")
}
