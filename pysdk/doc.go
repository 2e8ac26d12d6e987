// Package pysdk reads the workloads that Python scripts and Jupyter notebooks create
// with the Azure ML Python SDK v2 (azure-ai-ml), so that the rules checked on the Azure
// ML CLI v2's YAML can be checked on them.
//
// It recognises calls of command, KubernetesOnlineDeployment, BatchDeployment and
// ModelBatchDeployment (the workloads), of ResourceRequirementsSettings, ResourceSettings
// and JobResourceConfiguration (their resources), of Model (whether a deployment's model
// is MLflow) and ManagedOnlineDeployment (skipped: it runs on Azure VMs), whether called
// by a bare name or through an attribute, when the name comes from azure.ai.ml: imported
// from it or a module below it (from azure.ai.ml.entities import ResourceSettings as RS,
// from azure.ai.ml import entities, import azure.ai.ml), or, with a star import from
// one, bound nowhere in the file.
//
// Only literal keyword arguments are read: a string, a number (as azure-ai-ml sends it:
// its REST serializer writes str(value), so cpu=1 is "1" and cpu=0.5 is "0.5"), True or
// False (str: "True"), None (not given). A name is followed when it is bound exactly once
// in the file (in a notebook: in all its code cells together, one namespace), by a plain
// assignment, to such a literal or to a recognised call; a name bound more than once
// (imports of the same thing aside), assigned through an attribute or an index
// (requests.cpu = "2"), augmented, a parameter, a loop or with target, or bound nowhere,
// is not. Anything else (an f-string, os.environ[...], a call of something else, an
// arithmetic expression) is not read: it is reported in NotLiteral, and the workload's
// Unknown says which of its values are unknown, so that no rule is checked on a value
// that is not there. A workload bound to a name that is later changed (job.resources =
// ..., job.set_resources(...)) is unknown as a whole.
//
// Positions are of the raw file: for a script, the line and column of the literal; for a
// notebook, the line of the .ipynb file where the JSON string holding that source line
// starts, the column within the cell's line, the cell's number (1-based among all
// cells) and the line within the cell.
//
// Scopes are not told apart: every binding of a name anywhere in the file counts, which
// only ever makes fewer names followed, except for a name bound once inside one function
// and used in another (a NameError when run), which is followed. Package lint checks the
// workloads read here by the rules of the YAML's (instancetype validate and resolve).
package pysdk
