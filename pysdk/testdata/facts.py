# Facts CPython gives for pysdk's tests, read from stdin as JSON:
# {"programs": [...], "numbers": [...]}. Writes JSON: for each program, the
# positions of its expressions as "Kind line col" (col 1-based), and for each
# number literal, str() of its value, as azure-ai-ml's REST serializer writes it.
import ast
import json
import sys

data = json.load(sys.stdin)
out = {"programs": [], "numbers": []}
for src in data["programs"] or []:
    facts = []
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, ast.expr):
            facts.append("%s %d %d" % (type(n).__name__, n.lineno, n.col_offset + 1))
    out["programs"].append(facts)
for lit in data["numbers"] or []:
    out["numbers"].append(str(ast.literal_eval(lit)))
json.dump(out, sys.stdout)
