"""Dumps what CPython's ast finds in Python programs, for the differential tests.

Reads a JSON list of programs on stdin and writes a JSON list with, for each,
null when ast.parse refuses it, or the sorted list of facts: every Call with
its function's dotted name, position, number of positional arguments and its
keywords (name, kind and position of each value), and every name assigned by
an Assign or an AnnAssign with a value, with the value's kind and position,
every name a match statement's pattern binds, every node with its type and
position, and every comment (from the tokenize module) with its position.
The Go side (dump_test.go) writes the same facts from its own tree.
"""
import ast
import io
import json
import sys
import tokenize


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        if inner != "?":
            return inner + "." + node.attr
    return "?"


def kind(node):
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            return "bool"
        if v is None:
            return "none"
        if isinstance(v, str):
            return "str"
        if isinstance(v, bytes):
            return "bytes"
        if isinstance(v, (int, float, complex)):
            return "num"
        return "other"
    if isinstance(node, ast.Name):
        return "name"
    if isinstance(node, ast.Call):
        return "call"
    if isinstance(node, ast.JoinedStr):
        return "fstr"
    return "other"


def at(node):
    return "%s@%d:%d" % (kind(node), node.lineno, node.col_offset)


# Nodes the Go tree does not hold as nodes, or that have no position.
SKIPPED = (ast.FormattedValue, ast.pattern, ast.match_case, ast.expr_context, ast.operator,
           ast.boolop, ast.unaryop, ast.cmpop, ast.comprehension, ast.arguments,
           ast.withitem, ast.Module)


def nodes(tree):
    """Every node with a position, as "node Type line:col", but the literal parts
    of f-strings, their format specs and what patterns hold, which the Go tree
    does not keep."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.pattern):
            # Patterns' values and classes: the Go tree drops patterns.
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                if isinstance(v, ast.Constant):
                    skip.add(id(v))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip.add(id(node.format_spec))
            for v in node.format_spec.values:
                if isinstance(v, ast.Constant):
                    skip.add(id(v))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, SKIPPED) or id(node) in skip:
            continue
        out.append("node %s %d:%d" % (type(node).__name__, node.lineno, node.col_offset))
    return out


def facts(tree):
    out = nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            kws = ",".join("%s=%s" % (k.arg or "**", at(k.value)) for k in node.keywords)
            out.append("call %s %d:%d args=%d kw=%s" % (
                dotted(node.func), node.lineno, node.col_offset, len(node.args), kws))
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.append("assign %s %s" % (t.id, at(node.value)))
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name is not None:
            out.append("bind " + node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest is not None:
            out.append("bind " + node.rest)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if isinstance(node.target, ast.Name):
                out.append("assign %s %s" % (node.target.id, at(node.value)))
    return sorted(out)


def comments(src):
    """Every comment, as "comment line:col text", col in bytes as ast's."""
    out = []
    for tok in tokenize.tokenize(io.BytesIO(src).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            out.append("comment %d:%d %s" % (row, len(tok.line[:col].encode("utf-8")), tok.string))
    return out


def main():
    results = []
    for src in json.load(sys.stdin):
        try:
            tree = ast.parse(src.encode("utf-8", "surrogateescape"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            results.append(None)
            continue
        results.append(sorted(facts(tree) + comments(src.encode("utf-8", "surrogateescape"))))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
