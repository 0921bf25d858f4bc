#!/usr/bin/env python
"""Model validation: `opset.validate` against `onnx.checker.check_model(full_check=True)`, same run.

Models: the light models shipped in onnx/backend/test/data/light (densenet121 the largest) and a
generated chain of --nodes nodes (Conv/Relu/Add/Reshape blocks, as anchor-bench's bench_validation.py).
Times are medians over --reps in-process runs on an already loaded ModelProto; the registry is
loaded (and its per-version tables warmed) once before timing, as onnx's schemas are static.
ratio = ours / onnx full check (goal: <= 2). Our side also checks com.microsoft, tengine and the
modified domain, which onnx skips.

Run: python bench/validate.py [--reps 5] [--nodes 10000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import glob
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opset.validate import check_model


def median_ms(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def chain_model(n_nodes: int, c: int = 4, hw: int = 8) -> onnx.ModelProto:
    """The anchor's synthetic chain: Conv -> Relu -> Add (residual) -> Reshape, repeated."""
    rng = np.random.default_rng(0)
    nodes = []
    inits = [numpy_helper.from_array(np.array([1, c, hw, -1], np.int64), "shape")]
    h = "X"
    for k in range(n_nodes // 4):
        w, b = f"W{k}", f"B{k}"
        inits += [numpy_helper.from_array((rng.standard_normal((c, c, 3, 3)) * 0.1).astype(np.float32), w),
                  numpy_helper.from_array(np.zeros(c, np.float32), b)]
        nodes += [helper.make_node("Conv", [h, w, b], [f"c{k}"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
                  helper.make_node("Relu", [f"c{k}"], [f"r{k}"]),
                  helper.make_node("Add", [f"r{k}", h], [f"a{k}"]),
                  helper.make_node("Reshape", [f"a{k}", "shape"], [f"h{k}"])]
        h = f"h{k}"
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, c, hw, hw])],
                              [helper.make_tensor_value_info(h, TensorProto.FLOAT, [1, c, hw, hw])], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def row(name: str, m: onnx.ModelProto, reps: int) -> dict[str, object]:
    result = check_model(m)  # warm-up, and the findings shown next to the times
    errors = sum(d.is_error for d in result.diagnostics)
    unknown = sorted({d.op or "" for d in result.diagnostics if d.check == "unknown_op"})
    onnx_ms = median_ms(lambda: onnx.checker.check_model(m, full_check=True), reps)
    ours_ms = median_ms(lambda: check_model(m), reps)
    return {"model": name, "nodes": len(m.graph.node), "onnx_full_ms": onnx_ms, "ours_ms": ours_ms,
            "ratio": ours_ms / onnx_ms, "errors": errors, "shaped": len(result.inferred),
            "unknown_ops": ", ".join(u.split("::")[-1] for u in unknown)}


def print_table(rows: list[dict[str, object]]) -> None:
    cols = ["model", "nodes", "onnx_full_ms", "ours_ms", "ratio", "errors", "shaped", "unknown_ops"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--profile", action="store_true", help="cProfile our validation of the chain")
    a = ap.parse_args()
    t = time.perf_counter()
    from opset.load import load_registry

    load_registry()
    print(f"# onnx {onnx.__version__}; registry load {1e3 * (time.perf_counter() - t):.0f} ms; "
          f"reps {a.reps} (median ms)\n")
    light = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    rows = [row(os.path.basename(p)[6:-5], onnx.load(p), a.reps) for p in sorted(glob.glob(f"{light}/*.onnx"))]
    chain = chain_model(a.nodes)
    rows.append(row(f"chain {a.nodes}", chain, max(1, min(a.reps, 3))))
    print_table(rows)
    total_onnx = sum(float(str(r["onnx_full_ms"])) for r in rows)
    total_ours = sum(float(str(r["ours_ms"])) for r in rows)
    print(f"\ntotal: onnx {total_onnx:.1f} ms, ours {total_ours:.1f} ms, ratio {total_ours / total_onnx:.2f}")
    if a.profile:
        prof = cProfile.Profile()
        prof.enable()
        check_model(chain)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
