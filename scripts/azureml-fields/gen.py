#!/usr/bin/env python3
"""Writes azureml/fields_gen.go: the fields of every Azure ML file the tool checks, as
azure-ai-ml's own marshmallow schemas declare them, for its unknown-field check.

It imports azure-ai-ml's schema classes and walks their declared fields: nested schemas,
lists and dicts of them, unions (UnionField) and unions chosen by a type field
(TypeSensitiveUnionField), experimental fields. A schema that tolerates unknown keys
(unknown=INCLUDE or EXCLUDE, in its Meta or on the NestedField that holds it) is open. In a
PathAwareSchema a dump-only field is dropped before loading, so known; in a plain schema
marshmallow refuses it as unknown, so it is left out.

Usage: scripts/azureml-fields/run.sh (fetches the pinned Debian packages, then runs this
with them on the path). Writes the Go source to standard output.
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
import logging

logging.disable(logging.CRITICAL)

import marshmallow
from marshmallow import RAISE, Schema, fields

import azure.ai.ml
from azure.ai.ml._schema._deployment.batch.batch_deployment import BatchDeploymentSchema
from azure.ai.ml._schema._deployment.batch.model_batch_deployment import ModelBatchDeploymentSchema
from azure.ai.ml._schema._deployment.online.online_deployment import KubernetesOnlineDeploymentSchema
from azure.ai.ml._schema.automl import AutoMLClassificationSchema, AutoMLForecastingSchema, AutoMLRegressionSchema
from azure.ai.ml._schema.automl.image_vertical.image_classification import (
    ImageClassificationMultilabelSchema,
    ImageClassificationSchema,
)
from azure.ai.ml._schema.automl.image_vertical.image_object_detection import (
    ImageInstanceSegmentationSchema,
    ImageObjectDetectionSchema,
)
from azure.ai.ml._schema.automl.nlp_vertical.text_classification import TextClassificationSchema
from azure.ai.ml._schema.automl.nlp_vertical.text_classification_multilabel import TextClassificationMultilabelSchema
from azure.ai.ml._schema.automl.nlp_vertical.text_ner import TextNerSchema
from azure.ai.ml._schema.compute.aml_compute import AmlComputeSchema
from azure.ai.ml._schema.compute.compute_instance import ComputeInstanceSchema
from azure.ai.ml._schema.compute.kubernetes_compute import KubernetesComputeSchema
from azure.ai.ml._schema.compute.synapsespark_compute import SynapseSparkComputeSchema
from azure.ai.ml._schema.compute.virtual_machine_compute import VirtualMachineComputeSchema
from azure.ai.ml._schema.core.fields import ExperimentalField, StringTransformedEnum, TypeSensitiveUnionField, UnionField
from azure.ai.ml._schema.core.schema import PathAwareSchema
from azure.ai.ml._schema.job.command_job import CommandJobSchema
from azure.ai.ml._schema.pipeline.pipeline_job import PipelineJobSchema
from azure.ai.ml._schema._sweep.sweep_job import SweepJobSchema
from azure.ai.ml.constants._common import BASE_PATH_CONTEXT_KEY

CONTEXT = {BASE_PATH_CONTEXT_KEY: "."}

# The files the tool checks: each a schema, or a choice of schemas by a field's value (as
# load_job chooses an AutoML job's by task, load_compute a compute's by type).
ROOTS = [
    ("CommandJob", [CommandJobSchema]),
    ("SweepJob", [SweepJobSchema]),
    ("PipelineJob", [PipelineJobSchema]),
    ("AutoMLJob", ("task", [AutoMLClassificationSchema, AutoMLRegressionSchema, AutoMLForecastingSchema,
                            ImageClassificationSchema, ImageClassificationMultilabelSchema,
                            ImageObjectDetectionSchema, ImageInstanceSegmentationSchema,
                            TextClassificationSchema, TextClassificationMultilabelSchema, TextNerSchema])),
    ("KubernetesOnlineDeployment", [KubernetesOnlineDeploymentSchema]),
    ("BatchDeployment", [BatchDeploymentSchema]),
    ("ModelBatchDeployment", [ModelBatchDeploymentSchema]),
    ("Compute", ("type", [AmlComputeSchema, ComputeInstanceSchema, KubernetesComputeSchema,
                          SynapseSparkComputeSchema, VirtualMachineComputeSchema])),
]


class Table:
    """The schemas and value shapes met, each numbered once."""

    def __init__(self):
        self.schemas = []  # (name, open, required, [(key, value index)])
        self.schema_ids = {}
        self.values = []  # tuples, see value()
        self.value_ids = {}

    def value(self, v):
        if v not in self.value_ids:
            self.value_ids[v] = len(self.values)
            self.values.append(v)
        return self.value_ids[v]

    def schema(self, s, open_):
        """The index of schema instance s, walked on first sight."""
        key = (type(s), open_, tuple(sorted(s.only)) if s.only else None, tuple(sorted(s.exclude)))
        if key in self.schema_ids:
            return self.schema_ids[key]
        i = len(self.schemas)
        self.schema_ids[key] = i
        self.schemas.append(None)
        path_aware = isinstance(s, PathAwareSchema)
        known, required, types = [], [], []
        for name, f in s.fields.items():
            if f.dump_only and not path_aware:
                continue
            k = f.data_key or name
            known.append((k, self.field(f)))
            if f.required and not f.dump_only:
                required.append(k)
            if k == "type" and isinstance(f, StringTransformedEnum):
                types = sorted(set(str(v) for v in f.allowed_values))
        self.schemas[i] = (type(s).__name__, open_, sorted(required), types, sorted(known))
        return i

    def nested(self, f):
        """The schema index of a Nested field (its unknown setting included)."""
        s = f.schema
        unknown = f.unknown if getattr(f, "unknown", None) is not None else s.unknown
        return self.schema(s, unknown != RAISE)

    def field(self, f):
        """The value index of field f: what shape of value it takes, as far as keys go."""
        if isinstance(f, ExperimentalField):
            return self.field(f.experimental_field)
        if isinstance(f, TypeSensitiveUnionField):
            by_type = []
            typed = set()
            for t, fs in sorted(f._type_sensitive_fields_dict.items()):
                idx = tuple(self.field(x) for x in fs)
                by_type.append((t, idx))
                typed.update(id(x) for x in fs)
            alts = tuple(self.field(x) for x in f._union_fields)
            return self.value(("union", alts, f.type_field_name, tuple(by_type)))
        if isinstance(f, UnionField):
            return self.value(("union", tuple(self.field(x) for x in f._union_fields), "", ()))
        if isinstance(f, fields.Nested):
            s = self.nested(f)
            if f.many:
                return self.value(("list", self.value(("schema", s))))
            return self.value(("schema", s))
        if isinstance(f, fields.List):
            return self.value(("list", self.field(f.inner)))
        if isinstance(f, fields.Dict):  # fields.Mapping too
            if f.value_field is None:
                return self.value(("any",))
            return self.value(("dict", self.field(f.value_field)))
        if isinstance(f, Schema):
            return self.value(("schema", self.schema(f, f.unknown != RAISE)))
        if isinstance(f, (fields.Raw, fields.Tuple, fields.Mapping)) or type(f) is fields.Field:
            return self.value(("any",))
        # Every other field takes a scalar (strings, numbers, enums, references to
        # assets and files): a mapping or a list there is not a matter of keys.
        return self.value(("scalar",))


def allowed(s, key):
    """The values a choosing field (task, type) of schema s allows."""
    for name, f in s.fields.items():
        if (f.data_key or name) == key:
            return list(getattr(f, "allowed_values", None) or [])
    raise SystemExit("%s has no field %s" % (type(s).__name__, key))


def go_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    t = Table()
    roots = []
    for name, spec in ROOTS:
        if isinstance(spec, tuple):
            key, classes = spec
            by = []
            for c in classes:
                s = c(context=CONTEXT)
                i = t.value(("schema", t.schema(s, s.unknown != RAISE)))
                for v in allowed(s, key):
                    by.append((v, (i,)))
            roots.append((name, t.value(("union", (), key, tuple(sorted(by))))))
        else:
            s = spec[0](context=CONTEXT)
            roots.append((name, t.value(("schema", t.schema(s, s.unknown != RAISE)))))

    out = []
    w = out.append
    w("// Code generated by scripts/azureml-fields/gen.py from azure-ai-ml %s (marshmallow %s); DO NOT EDIT.\n\n"
      % (azure.ai.ml.__version__, marshmallow.__version__))
    w("package azureml\n\n")
    w("// fieldsSource is the azure-ai-ml release whose schemas the tables are generated from.\n")
    w("const fieldsSource = %s\n\n" % go_string("azure-ai-ml " + azure.ai.ml.__version__))
    w("// fieldRoots are the value of each kind of file checked, by kind.\n")
    w("var fieldRoots = map[string]uint16{\n")
    for name, i in roots:
        w("\t%s: %d,\n" % (go_string(name), i))
    w("}\n\n")
    w("// fieldSchemas are azure-ai-ml's schemas met, by index.\n")
    w("var fieldSchemas = [...]fieldSchema{\n")
    for i, (name, open_, required, types, known) in enumerate(t.schemas):
        req = ", ".join(go_string(r) for r in required)
        ts = ", ".join(go_string(r) for r in types)
        fs = ", ".join("{%s, %d}" % (go_string(k), v) for k, v in known)
        w("\t%d: {%s, %s, []string{%s}, []string{%s}, []schemaField{%s}},\n"
          % (i, go_string(name), "true" if open_ else "false", req, ts, fs))
    w("}\n\n")
    w("// fieldValues are the shapes of value a field takes, by index.\n")
    w("var fieldValues = [...]fieldValue{\n")
    for i, v in enumerate(t.values):
        kind = v[0]
        if kind == "any":
            w("\t%d: {kind: valueAny},\n" % i)
        elif kind == "scalar":
            w("\t%d: {kind: valueScalar},\n" % i)
        elif kind == "schema":
            w("\t%d: {kind: valueSchema, elem: %d},\n" % (i, v[1]))
        elif kind == "list":
            w("\t%d: {kind: valueList, elem: %d},\n" % (i, v[1]))
        elif kind == "dict":
            w("\t%d: {kind: valueDict, elem: %d},\n" % (i, v[1]))
        else:
            _, alts, key, by = v
            a = ", ".join(str(x) for x in alts)
            b = ", ".join("{%s, []uint16{%s}}" % (go_string(k), ", ".join(str(x) for x in idx)) for k, idx in by)
            w("\t%d: {kind: valueUnion, alts: []uint16{%s}, typeKey: %s, byType: []typedValues{%s}},\n"
              % (i, a, go_string(key), b))
    w("}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
