# instancetype:ignore R6 -- these instance types come with the next cluster
from azure.ai.ml import command

job = command(command="python train.py", compute="k8s-compute", instance_type="gpu-h100")
other = command(command="python train.py", compute="k8s-compute", instance_type="cpu-large")
