#!/usr/bin/env python3
"""Runs Python files that build azure-ai-ml jobs and deployments, and writes each job or
deployment a file binds at its top level with azure-ai-ml's own dump(), as the Azure ML CLI
would read it: OUT/STEM.NAME.yml for the name NAME of the file STEM.py.

    dump.py OUT FILE.py...

Run through scripts/azureml-fields/run.sh python, in a directory holding what the files'
Model(path=...) and Environment(conda_file=...) read (azure-ai-ml hashes them when built).
"""
import logging
import os
import runpy
import sys
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from azure.ai.ml.entities import Deployment, Job


def main():
    out, files = sys.argv[1], sys.argv[2:]
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        names = runpy.run_path(path, run_name="__dump__")
        wrote = 0
        for name, value in names.items():
            if isinstance(value, (Job, Deployment)):
                value.dump(os.path.join(out, f"{stem}.{name}.yml"))
                wrote += 1
        if wrote == 0:
            sys.exit(f"dump.py: {path} binds no azure-ai-ml job or deployment")


main()
