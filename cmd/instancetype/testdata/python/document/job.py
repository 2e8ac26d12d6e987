# The source document's SDK example of a training job, as written but for its import:
# azure-ai-ml exports Environment from azure.ai.ml.entities, not from azure.ai.ml.
from azure.ai.ml import command
from azure.ai.ml.entities import Environment

# define the command
command_job = command(
    command="python -c \"print('Hello world!')\"",
    environment=Environment(image="python:3.12-slim"),
    compute="<Kubernetes-compute_target_name>",
    instance_type="<instance type name>"
)
