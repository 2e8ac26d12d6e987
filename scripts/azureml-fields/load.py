#!/usr/bin/env python3
"""Loads Azure ML files with azure-ai-ml's own loaders and prints, as JSON, what each is
and the keys azure-ai-ml reports as unknown in it ("Unknown field", in its error or in
its warnings): {"FILE": {"loaded": true|false, "kind": ..., "unknown": ["key", ...]}}.

Each file is loaded by the loader of its family, given on the command line:
    load.py job|online|batch|modelbatch|compute FILE... [-- FAMILY FILE...]
For an online deployment, kind says which schema read it (KubernetesOnlineDeployment or
ManagedOnlineDeployment). Run through scripts/azureml-fields/run.sh python.
"""
import contextlib
import io
import json
import logging
import re
import sys
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from azure.ai.ml import load_batch_deployment, load_compute, load_job, load_online_deployment
from azure.ai.ml.entities._load_functions import load_model_batch_deployment

LOADERS = {"job": load_job, "online": load_online_deployment, "batch": load_batch_deployment,
           "modelbatch": load_model_batch_deployment, "compute": load_compute}

# A key refused as unknown, as azure-ai-ml's messages quote it: 'key': ['Unknown field.'],
# "key": [\n "Unknown field." ] (its JSON), and path.to.key: Unknown field. (its warnings).
UNKNOWN = [
    re.compile(r"""['"]([^'"\s\\]+)\\?['"]:\s*\[\s*(?:\\n\s*)*\\?['"]Unknown field\.""", re.S),
    re.compile(r"""([^\s\[\],:'"]+): Unknown field\."""),
]


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def unknown_keys(text):
    keys = set()
    for r in UNKNOWN:
        for m in r.finditer(text):
            keys.add(m.group(1).rsplit(".", 1)[-1])
    return sorted(keys)


def main():
    out = {}
    family = None
    logging.disable(logging.NOTSET)
    capture = Capture()
    # azure-ai-ml's loggers print its warnings themselves: each also tells capture.
    for name in [""] + [n for n in logging.root.manager.loggerDict if n.startswith("azure")]:
        logger = logging.getLogger(name)
        logger.addHandler(capture)
    for arg in sys.argv[1:]:
        if arg in LOADERS:
            family = arg
            continue
        capture.lines = []
        res = {"loaded": True, "kind": "", "unknown": []}
        text = ""
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                obj = LOADERS[family](arg)
            res["kind"] = type(obj).__name__
        except Exception as e:  # azure-ai-ml raises its own and marshmallow's
            res["loaded"] = False
            text = str(e)
        text += "\n" + printed.getvalue() + "\n" + "\n".join(capture.lines)
        res["unknown"] = unknown_keys(text)
        out[arg] = res
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
