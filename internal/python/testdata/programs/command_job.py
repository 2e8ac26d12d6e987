# The source document's training job, with a Kubernetes compute and an instance type.
from azure.ai.ml import Environment, MLClient, command
from azure.identity import DefaultAzureCredential

ml_client = MLClient(
    DefaultAzureCredential(), subscription_id="<SUBSCRIPTION_ID>",
    resource_group_name="<RESOURCE_GROUP>", workspace_name="<AML_WORKSPACE_NAME>"
)

# define the command
command_job = command(
    command="python -c \"print('Hello world!')\"",
    environment=Environment(image="python:3.12-slim"),
    compute="k8s-compute",
    instance_type="cpu-small"
)

returned_job = ml_client.jobs.create_or_update(command_job)
print(f"Job {returned_job.name} submitted: {returned_job.studio_url}")
ml_client.jobs.stream(returned_job.name)
