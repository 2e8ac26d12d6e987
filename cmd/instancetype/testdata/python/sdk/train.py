"""Train on the Kubernetes compute, as the source document's SDK example does."""
import os

from azure.ai.ml import Environment, MLClient, command
from azure.ai.ml.entities import JobResourceConfiguration
from azure.identity import DefaultAzureCredential

ml_client = MLClient.from_config(credential=DefaultAzureCredential())

# define the command: the instance type is misspelt
command_job = command(
    command="python -c \"print('Hello world!')\"",
    environment=Environment(image="python:3.12-slim"),
    compute="k8s-compute",
    instance_type="gpu-a10",
)

# the same job on a serverless compute: skipped
serverless_job = command(
    command="python train.py",
    environment="azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest",
    compute="serverless",
)

# resources given as a JobResourceConfiguration, with an instance type of the catalog
gpu_job = command(
    command="python train.py --epochs 10",
    environment="azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest",
    compute="k8s-compute",
    resources=JobResourceConfiguration(instance_type="gpu-a100"),
)

# an instance type from the environment is not read: never a finding
env_job = command(
    command="python train.py",
    environment="azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest",
    compute="k8s-compute",
    instance_type=os.environ["INSTANCE_TYPE"],
)

ml_client.jobs.create_or_update(command_job)
