from azure.ai.ml import (
    KubernetesOnlineDeployment,
    Model,
    Environment,
    CodeConfiguration,
    ResourceSettings,
    ResourceRequirementsSettings
)
from azure.ai.ml.entities import KubernetesOnlineEndpoint

model = Model(path="./model/sklearn_mnist_model.pkl")
env = Environment(
    conda_file="./model/conda.yml",
    image="mcr.microsoft.com/azureml/openmpi3.1.2-ubuntu18.04:latest",
)

requests = ResourceSettings(cpu="0.1", memory="0.2G")
limits = ResourceSettings(cpu="0.2", memory="0.5G", gpu="1")
resources = ResourceRequirementsSettings(requests=requests, limits=limits)

endpoint = KubernetesOnlineEndpoint(name="k8s-endpoint", compute="k8s-compute", auth_mode="key")

# define the deployment
blue_deployment = KubernetesOnlineDeployment(
    name="blue",
    endpoint_name="<endpoint name>",
    model=model,
    environment=env,
    code_configuration=CodeConfiguration(
        code="./script/", scoring_script="score.py"
    ),
    resources=resources,
    instance_count=1,
    instance_type="<instance type name>",
)

green = KubernetesOnlineDeployment(
    name="green", endpoint_name=endpoint.name, model=model, environment=env,
    instance_type='gpu-large', instance_count=2,
    resources=ResourceRequirementsSettings(
        requests=ResourceSettings(cpu="0.1", memory="0.2G"),
        limits=ResourceSettings(cpu="0.2", memory="0.5G", gpu="1"),
    ),
    **extra_settings,
)
