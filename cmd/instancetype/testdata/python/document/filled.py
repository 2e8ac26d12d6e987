# The source document's three SDK examples filled in, as a data scientist would, on the
# cluster of ../instance_types.yaml, with the mistakes the tool is for.
from azure.ai.ml import command
from azure.ai.ml.constants import AssetTypes
from azure.ai.ml.entities import (
    BatchDeployment,
    CodeConfiguration,
    Environment,
    JobResourceConfiguration,
    KubernetesOnlineDeployment,
    Model,
    ResourceRequirementsSettings,
    ResourceSettings,
)

# R6: an instance type the cluster does not have (gpu-a100 is meant)
command_job = command(
    command="python -c \"print('Hello world!')\"",
    environment=Environment(image="python:3.12-slim"),
    compute="k8s-compute",
    instance_type="gpu-a10",
)

# an instance type of the cluster, through the job's resources
gpu_job = command(
    command="python train.py --epochs 10",
    environment=Environment(image="python:3.12-slim"),
    compute="azureml:k8s-compute",
    resources=JobResourceConfiguration(instance_type="gpu-a100", instance_count=1),
)

model = Model(path="./model/sklearn_mnist_model.pkl")
env = Environment(
    conda_file="./model/conda.yml",
    image="mcr.microsoft.com/azureml/openmpi3.1.2-ubuntu18.04:latest",
)
code = CodeConfiguration(code="./script/", scoring_script="score.py")

# as the document, on cpu-small: no finding
blue_deployment = KubernetesOnlineDeployment(
    name="blue",
    endpoint_name="my-endpoint",
    model=model,
    environment=env,
    code_configuration=code,
    instance_count=1,
    instance_type="cpu-small",
)

# R9: the document's resources ask for a GPU, which cpu-small does not provide
requests = ResourceSettings(cpu="0.1", memory="0.2G")
limits = ResourceSettings(cpu="0.2", memory="0.5G", gpu="1")
green_deployment = KubernetesOnlineDeployment(
    name="green",
    endpoint_name="my-endpoint",
    model=model,
    environment=env,
    code_configuration=code,
    resources=ResourceRequirementsSettings(requests=requests, limits=limits),
    instance_count=1,
    instance_type="cpu-small",
)

# R10: an MLflow model asks for less than 2 cpu and 4G
mlflow_deployment = KubernetesOnlineDeployment(
    name="mlflow",
    endpoint_name="my-endpoint",
    model=Model(path="./mlflow-model", type=AssetTypes.MLFLOW_MODEL),
    resources=ResourceRequirementsSettings(
        requests=ResourceSettings(cpu="1", memory="2G"),
        limits=ResourceSettings(cpu="2", memory="4G"),
    ),
    instance_count=1,
    instance_type="cpu-small",
)

# R6: a batch deployment on the cluster, its instance type misspelt
batch_deployment = BatchDeployment(
    name="nightly",
    endpoint_name="my-batch-endpoint",
    model=model,
    environment=env,
    code_configuration=code,
    compute="k8s-compute",
    resources=JobResourceConfiguration(instance_type="cpu-smal", instance_count=2),
)
