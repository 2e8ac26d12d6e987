"""Batch deployment and a pipeline on a Kubernetes compute."""
import os
from azure.ai.ml import MLClient, Input, Output, command, dsl
from azure.ai.ml.constants import AssetTypes
from azure.ai.ml.entities import (BatchDeployment, BatchEndpoint, JobResourceConfiguration,
                                  Model, Environment, CodeConfiguration)

model = Model(path="./model", type=AssetTypes.MLFLOW_MODEL, name='mnist')
batch = BatchDeployment(
    name="mnist-torch",
    endpoint_name="mnist-batch",
    model=model,
    compute='k8s-compute',
    instance_count=2,
    max_concurrency_per_instance=2,
    mini_batch_size=10,
    output_file_name="predictions.csv",
    resources=JobResourceConfiguration(instance_type="gpu-small", instance_count=1,
                                       properties={"k": 1}, shm_size='2g'),
)
train = command(
    inputs=dict(data=Input(type=AssetTypes.URI_FOLDER, path="azureml:mnist:1"), epochs=10),
    outputs={"model": Output(type="uri_folder")},
    code="./src",
    command="python train.py --data ${{inputs.data}} --epochs ${{inputs.epochs}}",
    environment="azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest",
    compute=os.environ.get("COMPUTE", "k8s-compute"),
    instance_type=f"{size}-gpu",
    resources=JobResourceConfiguration(instance_count=2),
    distribution={"type": "PyTorch", "process_count_per_instance": 1},
)
train.resources = JobResourceConfiguration(instance_type="cpu-large", instance_count=1)

@dsl.pipeline(compute="k8s-compute", description="a pipeline")
def pipeline(data: Input, lr: float = 0.01) -> dict:
    step = train(data=data, lr=lr)
    step.compute = "k8s-compute"
    step.resources.instance_type = "gpu-large"
    return {"model": step.outputs.model}

async def main(client: MLClient, *jobs, retries=3, **kwargs):
    async with client.session() as session:
        for job in jobs:
            try:
                result = await session.submit(job, wait=True)
            except* (TimeoutError, ConnectionError) as group:
                print("retry", *group.exceptions, sep="\n")
            else:
                yield result
    lambda_ = lambda x, *a, k=1, **kw: x(k=k)
    squares = [x ** 2 for x in range(10) if x % 2 if x > 2]
    table = {k: v for k, v in zip("abc", [1, 2, 3])}
    if (n := len(squares)) > 3:
        del squares[0], table["a"]
    match kwargs:
        case {"size": "small" | "medium" as size, **rest} if size != "x":
            instance_type = f"cpu-{size}"
        case [1, 2, *others]:
            pass
        case Point(x=0, y=-1.5) | None:
            pass
        case _:
            raise ValueError("unknown") from None
