#!/usr/bin/env python3
"""Writes azureml/testdata/pyyaml/types.tsv: plain scalars drawn from the characters that
YAML 1.1's numbers, booleans and nulls are made of, each with the type PyYAML's safe loader
(what azure-ai-ml reads Azure ML files with) gives it, as azureml's pyYAMLType names it.
TestPyYAMLTypeRecorded holds pyYAMLType to the file.

Usage: python3 scripts/pyyaml-types.py   (needs PyYAML; the file says which version wrote it)
"""
import random

import yaml

NAMES = {"str": "", "timestamp": "", "int": "a number", "float": "a number",
         "bool": "a boolean", "null": "null"}
ALPHABET = "0123456789_.:+-eExXbBoOaAfFinINnN~yYlLuUsStTrR"
DIGITS = "0123456789" * 4 + "01" * 4 + "_.:+-eExb"
WORDS = ["inf", "Inf", "INF", "nan", "NaN", "NAN", "null", "Null", "true", "yes", "on",
         "off", "no", "NO", "Off", "False", "y", "n"]


def main():
    rng = random.Random(2026)
    loader = yaml.SafeLoader("")
    seen, rows = set(), []
    while len(rows) < 10000:
        # Half the draws are mostly digits, where the numbers are.
        alphabet = ALPHABET if rng.random() < 0.5 else DIGITS
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.1:
            s = rng.choice(["", "+", "-", "."]) + rng.choice(WORDS)
        if s in seen:
            continue
        seen.add(s)
        tag = loader.resolve(yaml.ScalarNode, s, (True, False)).rsplit(":", 1)[1]
        rows.append(s + "\t" + NAMES[tag])
    with open("azureml/testdata/pyyaml/types.tsv", "w") as f:
        f.write("# PyYAML %s: scalar<TAB>type (empty: a string)\n" % yaml.__version__)
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
