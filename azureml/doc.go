// Package azureml reads Azure Machine Learning files as the Azure ML CLI v2 reads them:
// which file is what (Recognise), the workloads they hold and what resolution needs of
// each (Read), and the compute targets of compute files and of az ml compute list's
// output (Compute, ParseCompute).
//
// The values are those package source reads, with one exception: a Kubernetes
// deployment's resources are typed as azure-ai-ml reads the file, with PyYAML's YAML 1.1
// (1e3 and 0.5e1 are strings to it, read as those quantities; 1.5 and on are not, and are
// a finding, as the CLI refuses them: "Not a valid string"). azure-ai-ml's loaders and
// marshmallow schemas are the reference; tests hold files of every family to what
// azure-ai-ml 1.34 read from them.
//
//   - A Kubernetes online deployment (type: kubernetes, whatever its $schema says, as
//     azure-ai-ml's load_online_deployment decides; without a type, the
//     kubernetesOnlineDeployment $schema, or an endpoint_name without a managed or batch
//     marker: the source document's examples have no type), with its instance_type,
//     resources (requests and limits of cpu, memory and gpu, which is nvidia.com/gpu;
//     both given is a finding) and model.type (mlflow_model marks MLflow).
//   - Command, sweep and AutoML jobs on a compute target (resources.instance_type), batch
//     deployments on one, pipeline jobs (each step under jobs on its own compute or the
//     pipeline's settings.default_compute), and the older forms: a job with compute:
//     {target, instance_type}, which the v2 CLI refuses (a finding that gives today's
//     form), and an online endpoint with its deployments inline.
//   - Compute files and az ml compute list's output: each compute's name, type and the
//     resource group and workspace of its id.
//   - Skipped, with the reason: managed online deployments, serverless jobs and steps,
//     Spark jobs and steps, local jobs, pipeline components and data steps, batch
//     deployments without a compute, components, endpoints without deployments, GitHub
//     workflows.
//
// Every key azure-ai-ml refuses as unknown in a file it checks is a finding
// (UnknownFields), by tables generated from azure-ai-ml's own schemas (fields_gen.go,
// scripts/azureml-fields); where those tolerate unknown keys, so does it.
//
// Findings carry their rule id in the Origin of their field.Error: legacy-compute-form,
// legacy-form, azureml-resource-name, azureml-resource-type, gpu-given-twice,
// compute-type, and those of package decode (wrong-type, unknown-field, duplicate-key).
package azureml
