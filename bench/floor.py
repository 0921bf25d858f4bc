#!/usr/bin/env python
"""How close can any Python validator come to onnx's checker? The floor under issue 26's warm first-validation goal.

Same process, same loaded ModelProto, medians over --reps, beside `onnx.checker.check_model(full_check=True)`:
- `read`: what every validator must read, and nothing else: each node's op_type, domain, name, inputs, outputs and
  each attribute's name, type and value; each graph input's, output's and value_info's name, element type and dims;
  each initializer's name, data type and dims. Read through protobuf's Python API (upb) into Python values, as
  `opset.validate` reads them; no check, no dict, no shape.
- `read+graph`: `read`, plus the least of what onnx's checker does beyond reading: every node's opset found
  and its op looked up in a dict, every name it reads defined earlier (by an input, an initializer or an earlier
  node's output), every name it writes new. Still no type, attribute or shape check.
- `ours_fresh`: `opset.validate.check_model` with everything kept across calls dropped first (`forget_outcomes()`).
- `onnx_infer`: `onnx.shape_inference.infer_shapes(model, data_prop=True)`, the anchor of the shape-inference goal;
  `graph/infer` is the `read+graph` floor beside it.

A ratio of a floor to onnx's check that is near or over 1.0 says the goal cannot be met by Python code that reads the
model through protobuf, whatever it checks; `ours / read+graph` is what checking costs us beyond that floor.
`--corpus DIR` adds the models under DIR (`python -m tests.real_models.make_models` writes build/real-models): its
small models (one to ten nodes) show the per-call floor, where onnx's whole check takes microseconds.

Run: python bench/floor.py [--reps 7] [--corpus build/real-models]
"""

from __future__ import annotations

import argparse
import functools
import glob
import os
import sys
from pathlib import Path
from typing import Any

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.light import light_name, light_paths
from bench.validate import chain_model, median_ms
from opset.validate import check_model, default_registry, forget_outcomes


def read(model: onnx.ModelProto) -> list[Any]:
    """Every field a validator reads, as Python values (kept in a list, so nothing is optimised away)."""
    out: list[Any] = []
    add = out.append
    add([(o.domain, o.version) for o in model.opset_import])
    graph = model.graph
    for vi in [*graph.input, *graph.output, *graph.value_info]:
        tt = vi.type.tensor_type
        add((vi.name, tt.elem_type, [(d.dim_value, d.dim_param) for d in tt.shape.dim]))
    for t in graph.initializer:
        add((t.name, t.data_type, t.dims[:]))
    for n in graph.node:
        add((n.op_type, n.domain, n.name, n.input[:], n.output[:], [_attribute(a) for a in n.attribute]))
    return out


_A = onnx.AttributeProto


def _attribute(a: onnx.AttributeProto) -> tuple[Any, ...]:
    """An attribute's name, type and the one field its type says holds the value (a tensor: its type and dims)."""
    kind = a.type
    value: Any = (a.i if kind == _A.INT else a.f if kind == _A.FLOAT else a.s if kind == _A.STRING else
                  a.ints[:] if kind == _A.INTS else a.floats[:] if kind == _A.FLOATS else
                  (a.t.data_type, a.t.dims[:]) if kind == _A.TENSOR else a.strings[:] if kind == _A.STRINGS else None)
    return a.name, kind, value


def read_and_graph(model: onnx.ModelProto, ops: dict[tuple[str, str], int]) -> list[Any]:
    """`read`, plus opset and op lookups and the definition order of every name."""
    out = read(model)
    imports = {o.domain: o.version for o in model.opset_import}
    graph = model.graph
    defined = {vi.name for vi in graph.input} | {t.name for t in graph.initializer}
    problems = 0
    for n in graph.node:
        domain = n.domain
        opset = imports.get("" if domain == "ai.onnx" else domain)
        if opset is None or (domain, n.op_type) not in ops:
            problems += 1
        for name in n.input:
            if name and name not in defined:
                problems += 1
        for name in n.output:
            if name in defined:
                problems += 1
            defined.add(name)
    out.append(problems)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--nodes", type=int, default=10000, help="nodes of the generated chain")
    ap.add_argument("--corpus", help="a folder of .onnx models to add (their sum is one row)")
    a = ap.parse_args()
    default_registry()
    ops = {(s.domain, s.name): s.since_version for s in onnx.defs.get_all_schemas()}
    rows = [*((light_name(p), onnx.load(str(p))) for p in light_paths()), (f"chain {a.nodes}", chain_model(a.nodes))]
    corpus: list[onnx.ModelProto] = []
    if a.corpus:
        for path in sorted(glob.glob(os.path.join(a.corpus, "**", "*.onnx"), recursive=True)):
            model = onnx.load(path)
            try:
                onnx.checker.check_model(model, full_check=True)
            except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError):
                continue  # no ratio where onnx did not finish a check
            corpus.append(model)
    print(f"# onnx {onnx.__version__}; medians of {a.reps} (ms); ratios to onnx's full check\n")
    cols = ["model", "nodes", "onnx_ms", "read_ms", "read+graph_ms", "ours_fresh_ms", "read", "read+graph",
            "ours_fresh", "ours/read+graph", "onnx_infer_ms", "graph/infer"]
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))

    def measure(label: str, models: list[onnx.ModelProto]) -> None:
        def each(fn: Any, before: Any = None) -> float:
            """The sum over the models of each one's median (`before` runs ahead of every call: a corpus's models
            share no kept outcome)."""
            return sum(median_ms(functools.partial(fn, m), a.reps, before=before) for m in models)

        for m in models:
            check_model(m)  # generated formula modules imported, per-version tables built: not what is measured
        onnx_ms = each(lambda m: onnx.checker.check_model(m, full_check=True))
        read_ms = each(read)
        graph_ms = each(lambda m: read_and_graph(m, ops))
        ours_ms = each(check_model, before=forget_outcomes)
        infer_ms = each(lambda m: onnx.shape_inference.infer_shapes(m, data_prop=True))
        nodes = sum(len(m.graph.node) for m in models)
        print(f"| {label} | {nodes} | {onnx_ms:.3f} | {read_ms:.3f} | {graph_ms:.3f} | {ours_ms:.3f} | "
              f"{read_ms / onnx_ms:.2f} | {graph_ms / onnx_ms:.2f} | {ours_ms / onnx_ms:.2f} | "
              f"{ours_ms / graph_ms:.1f} | {infer_ms:.3f} | {graph_ms / infer_ms:.2f} |")

    for label, model in rows:
        measure(label, [model])
    if corpus:
        measure(f"corpus: {len(corpus)} models", corpus)


if __name__ == "__main__":
    main()
