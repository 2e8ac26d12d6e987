"""Jobs on the GPU pool, which is being resized."""
from azure.ai.ml import command

new_job = command(
    command="python train.py",
    compute="k8s-compute",
    # instancetype:ignore R6 -- the new instance type is added with the pool
    instance_type="gpu-h100",
)

old_job = command(
    command="python train.py",
    compute="k8s-compute",
    instance_type="gpu-a10",  # instancetype:ignore R6
)

typo_job = command(
    command="python train.py",
    compute="k8s-compute",
    instance_type="gpu-a1",
)

# instancetype:ignore R9
ok_job = command(command="python train.py", compute="k8s-compute", instance_type="gpu-a100")
