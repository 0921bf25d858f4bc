#!/usr/bin/env python
"""Model validation: `opset.validate` against `onnx.checker.check_model(full_check=True)`, same run.

Models: the light models shipped in onnx/backend/test/data/light (densenet121 the largest), two of them as
onnxruntime's optimizer writes them (made at run time: squeezenet at the extended level, with com.microsoft's
FusedConv; inception_v1 at the all level, with com.microsoft.nchwc's layout ops; onnx's checker does not know
these domains and skips their nodes) and a generated chain of --nodes nodes (Conv/Relu/Add/Reshape blocks, as
anchor-bench's bench_validation.py).
Times are medians over --reps in-process runs on an already loaded ModelProto; the registry is loaded once
before timing, as onnx's schemas are static. Three figures of ours, because validation keeps what it learnt:
- `first_ms`: our first validation of the model in the process, timed once. Formulas are compiled on their first
  evaluation and per-version tables built on first use (earlier rows may have done some of that).
- `fresh_ms`: a validation of the model with everything validation keeps across calls dropped first
  (`forget_outcomes()`): each node read from its proto and each distinct node signature checked afresh, as for a
  model never seen, with the formulas already compiled.
- `ours_ms`: validating the same model again (anchor-bench's way: the median of repeated calls). A node whose bytes
  were read before is not read again (`opset.validate.graph.read_node`; small declarations and initializers
  likewise), and a clean node whose signature was checked before, in this model or an earlier one, replays its
  outcome (`opset.validate.outcomes`): what remains is serialising each node, the graph's names and order, and
  each node's signature.
ratio = ours_ms / onnx full check; fresh_ratio, first_ratio likewise; fresh_cpu_ratio is fresh_ratio in this process's
CPU time (time.process_time), steadier than wall time on a machine other processes share.

`--corpus DIR` adds every model under DIR, such as the real-model corpus of the breadth issues
(`python -m tests.real_models.make_models` writes it to build/real-models; it needs the `real-models` extra):
torch's exports of BERT, GPT-2, Llama and a convnet, onnxruntime's optimizer at three levels, its transformer
optimizer and quantization tool, skl2onnx's conversions. A model onnx's checker refuses gets no ratio.

Run: python bench/validate.py [--reps 5] [--nodes 10000] [--profile] [--corpus build/real-models]
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.light import LIGHT, light_name, light_paths
from opset.validate import check_model, forget_outcomes


def median_ms(fn: Callable[[], object], reps: int, before: Callable[[], object] | None = None,
              clock: Callable[[], float] = time.perf_counter) -> float:
    """The median time of `fn` over `reps` calls by `clock` (wall time, or `time.process_time` for the CPU time of
    this process); `before` runs ahead of each call, untimed."""
    times = []
    for _ in range(reps):
        if before is not None:
            before()
        t = clock()
        fn()
        times.append(clock() - t)
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


def ort_optimized(path: str, level: str) -> onnx.ModelProto:
    """The model as onnxruntime's graph optimizer writes it at `level` (`ORT_ENABLE_EXTENDED` fuses into
    com.microsoft ops, `ORT_ENABLE_ALL` adds com.microsoft.nchwc's blocked layout)."""
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as folder:
        options = ort.SessionOptions()
        options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        options.optimized_model_filepath = os.path.join(folder, "optimized.onnx")
        options.log_severity_level = 3  # its notes on removed initializers and nchwc portability are not ours
        options.intra_op_num_threads = 1  # no worker threads left behind to compete with the timings that follow
        options.inter_op_num_threads = 1
        ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        model = onnx.load(options.optimized_model_filepath)
    # onnxruntime keeps the light models' IR version 3 but drops their initializers from the graph inputs, which
    # only IR 4 allows: onnx's checker refuses that outright, so the bench states IR 4 (nothing else changes)
    model.ir_version = max(model.ir_version, 4)
    return model


def _optimized_bytes(path: str, level: str) -> bytes:
    data: bytes = ort_optimized(path, level).SerializeToString()
    return data


def ort_optimized_apart(path: str, level: str) -> onnx.ModelProto:
    """`ort_optimized` run in a child process: importing onnxruntime here slowed this process's pure-Python work by
    about a third (the chain: 79 -> 116 ms), which would bias every row timed after it."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        data: bytes = pool.apply(_optimized_bytes, (path, level))
    return onnx.load_from_string(data)


def row(name: str, m: onnx.ModelProto, reps: int) -> dict[str, object]:
    t = time.perf_counter()
    result = check_model(m)  # the first validation of the model, and the findings shown next to the times
    first_ms = 1e3 * (time.perf_counter() - t)
    errors = sum(d.is_error for d in result.diagnostics)
    unknown = sorted({d.op or "" for d in result.diagnostics if d.check == "unknown_op"})
    try:
        onnx_ms: float | str = median_ms(lambda: onnx.checker.check_model(m, full_check=True), reps)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        onnx_ms = "refused: " + str(e).strip().splitlines()[0][:60]  # no ratio: onnx did not finish a check
    fresh_ms = median_ms(lambda: check_model(m), reps, before=forget_outcomes)
    ours_ms = median_ms(lambda: check_model(m), reps)
    def ratio(ms: float) -> float | str:
        return ms / onnx_ms if isinstance(onnx_ms, float) else "-"

    # the same fresh ratio in CPU time of this process: on a shared machine the wall figures of a few ms carry other
    # processes' time slices (both sides run on one thread here)
    fresh_cpu_ratio: float | str = "-"
    if isinstance(onnx_ms, float):
        onnx_cpu = median_ms(lambda: onnx.checker.check_model(m, full_check=True), reps, clock=time.process_time)
        fresh_cpu = median_ms(lambda: check_model(m), reps, before=forget_outcomes, clock=time.process_time)
        fresh_cpu_ratio = fresh_cpu / onnx_cpu if onnx_cpu > 0 else "-"

    return {"model": name, "nodes": len(m.graph.node), "onnx_full_ms": onnx_ms, "first_ms": first_ms,
            "fresh_ms": fresh_ms, "ours_ms": ours_ms, "first_ratio": ratio(first_ms), "fresh_ratio": ratio(fresh_ms),
            "fresh_cpu_ratio": fresh_cpu_ratio,
            "ratio": ratio(ours_ms), "timed": isinstance(onnx_ms, float), "errors": errors,
            "shaped": len(result.inferred), "unknown_ops": ", ".join(u.split("::")[-1] for u in unknown)}


def print_table(rows: list[dict[str, object]]) -> None:
    cols = ["model", "nodes", "onnx_full_ms", "first_ms", "fresh_ms", "ours_ms", "first_ratio", "fresh_ratio",
            "fresh_cpu_ratio", "ratio", "errors", "shaped", "unknown_ops"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")


def print_totals(label: str, rows: list[dict[str, object]]) -> None:
    def total(column: str) -> float:
        return sum(float(str(r[column])) for r in rows)

    onnx_ms, ours, fresh, first = total("onnx_full_ms"), total("ours_ms"), total("fresh_ms"), total("first_ms")
    print(f"\ntotal ({label}): onnx {onnx_ms:.1f} ms; ours again {ours:.1f} ms, ratio {ours / onnx_ms:.2f}; fresh "
          f"{fresh:.1f} ms, ratio {fresh / onnx_ms:.2f}; first runs {first:.1f} ms, ratio {first / onnx_ms:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--profile", action="store_true", help="cProfile our validation of the chain and of inception_v1")
    ap.add_argument("--corpus", default="", help="also every .onnx model under this folder, e.g. build/real-models "
                    "as `python -m tests.real_models.make_models` writes it (torch's exports, onnxruntime's "
                    "optimizer, transformer optimizer and quantization tool, skl2onnx)")
    a = ap.parse_args()
    t = time.perf_counter()
    from opset.validate import default_registry

    default_registry()  # the registry check_model uses, loaded before timing (onnx's schemas are static)
    print(f"# onnx {onnx.__version__}; registry load {1e3 * (time.perf_counter() - t):.0f} ms; "
          f"reps {a.reps} (median ms)\n")
    rows = [row(light_name(p), onnx.load(str(p)), a.reps) for p in light_paths()]
    for model, level in (("squeezenet", "ORT_ENABLE_EXTENDED"), ("inception_v1", "ORT_ENABLE_ALL")):
        optimized = ort_optimized_apart(str(LIGHT / f"light_{model}.onnx"), level)
        rows.append(row(f"{model} ort {level[11:].lower()}", optimized, a.reps))
    chain = chain_model(a.nodes)
    rows.append(row(f"chain {a.nodes}", chain, max(1, min(a.reps, 3))))
    print_table(rows)
    # totals over onnx's light models and the chain, as before the onnxruntime rows were added (onnx's checker
    # skips the com.microsoft nodes of those, so their ratio is not like for like)
    print_totals("light models and chain", [r for r in rows if " ort " not in str(r["model"])])
    if a.corpus:
        paths = sorted(Path(a.corpus).rglob("*.onnx"))
        if not paths:
            sys.exit(f"--corpus {a.corpus}: no .onnx model there (python -m tests.real_models.make_models writes one)")
        corpus = [row(str(p.relative_to(a.corpus)), onnx.load(str(p)), a.reps) for p in paths]
        print(f"\n## {a.corpus}: {len(corpus)} models\n")
        print_table(corpus)
        print_totals(f"{a.corpus}, the models onnx's checker finished", [r for r in corpus if r["timed"]])
    if a.profile:
        for model in (chain, onnx.load(str(LIGHT / "light_inception_v1.onnx"))):
            forget_outcomes()  # the profile of a fresh validation: every signature checked
            prof = cProfile.Profile()
            prof.enable()
            check_model(model)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
