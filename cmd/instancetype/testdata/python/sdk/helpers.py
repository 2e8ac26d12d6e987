"""Helpers of the scoring script: no azure-ai-ml here, so not a workload file."""
import json


def load(path):
    with open(path) as f:
        return json.load(f)
