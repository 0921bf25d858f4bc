#!/usr/bin/env python
"""Single-op kernel speed: our numpy reference kernels vs onnx.reference vs onnxruntime (CPU), side by side.

The cases, the interleaved timing and the output follow ../shared/anchor-bench/bench_kernels.py: one-node
opset-18 models, weights/shape/axes/pads as initializers, 1 thread for BLAS and ORT, up to --rounds
interleaved rounds (ort, ref, ours, ...), the reference capped at --cap seconds per op. Our kernel is the one
serving the registry version of the op at opset 18, called with every attribute resolved through the registry
(`resolve_attributes`), as the reference backend calls it. Ops without a kernel are skipped and listed.

With --baseline TREE (a checkout of another commit, e.g. `git worktree add /tmp/base main`), that tree's kernels
are timed too, in the same interleaved rounds (ort, ref, base, ours, ...): a before/after comparison that machine
noise hits alike.

Run:  python bench/kernels.py [--threads 1] [--cap 60] [--rounds 15] [--only Conv,Gemm] [--baseline TREE]
                              [--json out.json]
"""

from __future__ import annotations

import argparse
import os
import sys

# thread counts must be fixed before numpy / onnxruntime are imported
_pre = argparse.ArgumentParser(add_help=False)
_pre.add_argument("--threads", type=int, default=1)
_THREADS = _pre.parse_known_args()[0].threads
if _THREADS > 0:
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = str(_THREADS)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import functools  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from conformance.kernels.registry import KernelEntry, call_kernel, find_entry  # noqa: E402
from opset.infer import resolve_attributes  # noqa: E402
from opset.load import load_registry  # noqa: E402
from opset.model import OpVersion  # noqa: E402
from opset.registry import Registry  # noqa: E402

OPSET = 18


@dataclass
class Case:
    label: str
    op: str
    attrs: dict[str, Any]
    inputs: list[np.ndarray | None]
    const: set[int] = field(default_factory=set)  # input indices that become initializers
    n_out: int = 1


def make_cases() -> list[Case]:
    rng = np.random.default_rng(0)

    def f(*s: int) -> np.ndarray:
        return rng.standard_normal(s).astype(np.float32)

    def i64(*v: int) -> np.ndarray:
        return np.array(v, dtype=np.int64)

    x56 = f(1, 64, 56, 56)
    x112 = f(1, 64, 112, 112)
    h = 128
    return [
        Case("Conv 1x64x56x56 k3 p1 ->64", "Conv", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             [x56, f(64, 64, 3, 3), f(64)], {1, 2}),
        Case("Conv depthwise g=64", "Conv", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=64),
             [x56, f(64, 1, 3, 3), f(64)], {1, 2}),
        Case("ConvTranspose 1x32x28x28 s2 ->16x56x56", "ConvTranspose",
             dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
             [f(1, 32, 28, 28), f(32, 16, 3, 3), f(16)], {1, 2}),
        Case("MaxPool 3x3 s2 p1 1x64x112x112", "MaxPool",
             dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), [x112]),
        Case("AveragePool 3x3 s1 p1 1x64x112x112", "AveragePool", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             [x112]),
        Case("AveragePool3d k3 1x8x16x16x16", "AveragePool", dict(kernel_shape=[3, 3, 3]), [f(1, 8, 16, 16, 16)]),
        Case("GlobalAveragePool 1x256x56x56", "GlobalAveragePool", {}, [f(1, 256, 56, 56)]),
        Case("BatchNormalization 1x64x112x112", "BatchNormalization", dict(epsilon=1e-5),
             [x112, f(64), f(64), f(64), np.abs(f(64)) + 0.5], {1, 2, 3, 4}),
        Case("Gemm 256x1024 @ 1024x1024 +bias", "Gemm", {}, [f(256, 1024), f(1024, 1024), f(1024)], {1, 2}),
        Case("MatMul batched 8x12x128x64 @ ..x64x128", "MatMul", {}, [f(8, 12, 128, 64), f(8, 12, 64, 128)]),
        Case("Softmax 64x1000 axis=-1", "Softmax", dict(axis=-1), [f(64, 1000)]),
        Case("Relu 1M", "Relu", {}, [f(1000, 1000)]),
        Case("Sigmoid 1M", "Sigmoid", {}, [f(1000, 1000)]),
        Case("Tanh 1M", "Tanh", {}, [f(1000, 1000)]),
        Case("Add bcast 1x64x112x112 + 64x1x1", "Add", {}, [x112, f(64, 1, 1)], {1}),
        Case("Transpose 1x64x112x112 perm 0231", "Transpose", dict(perm=[0, 2, 3, 1]), [x112]),
        Case("Concat 4x 1x64x56x56 axis=1", "Concat", dict(axis=1), [f(1, 64, 56, 56) for _ in range(4)]),
        Case("Reshape 1x64x112x112 -> 1x64x12544", "Reshape", {}, [x112, i64(1, 64, -1)], {1}),
        Case("Slice [:,16:48,10:100:2,:]", "Slice", {},
             [x112, i64(16, 10), i64(48, 100), i64(1, 2), i64(2, 1)], {1, 2, 3, 4}),
        Case("Pad reflect 3 on 1x64x112x112", "Pad", dict(mode="reflect"), [x112, i64(0, 0, 3, 3, 0, 0, 3, 3)], {1}),
        Case("Resize nearest 2x 1x64x56x56", "Resize", dict(mode="nearest"),
             [x56, None, np.array([1, 1, 2, 2], dtype=np.float32)], {2}),
        Case("ReduceMean axes=[2,3] 1x64x112x112", "ReduceMean", dict(keepdims=1), [x112, i64(2, 3)], {1}),
        Case("LSTM seq32 b4 in64 h128", "LSTM", dict(hidden_size=h),
             [f(32, 4, 64), f(1, 4 * h, 64) * 0.1, f(1, 4 * h, h) * 0.1, f(1, 8 * h) * 0.1], {1, 2, 3}, n_out=3),
    ]


def build_model(c: Case) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    names, graph_inputs, inits, feeds = [], [], [], {}
    for i, arr in enumerate(c.inputs):
        if arr is None:
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        if i in c.const:
            inits.append(numpy_helper.from_array(arr, name))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(arr.dtype),
                                                              arr.shape))
            feeds[name] = arr
    outs = [f"out{k}" for k in range(c.n_out)]
    node = helper.make_node(c.op, names, outs, **c.attrs)
    graph = helper.make_graph([node], c.label, graph_inputs,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    return model, feeds


@functools.cache
def registry() -> Registry:
    return load_registry()


def registry_kernel(op: str, opset: int) -> tuple[OpVersion, KernelEntry] | None:
    """The registry version of ai.onnx `op` at `opset` and the kernel serving it, or None."""
    version = registry().try_resolve("ai.onnx", op, opset)
    if version is None:
        return None
    entry = find_entry(version.domain, version.name, version.since)
    return (version, entry) if entry is not None else None


_PACKAGES = ("conformance", "opset", "gen")


def _project_modules() -> dict[str, Any]:
    return {name: m for name, m in sys.modules.items() if name.split(".")[0] in _PACKAGES}


def baseline_calls(tree: str, cases: list[Case]) -> dict[str, Callable[[], Any]]:
    """Each case's kernel call as the project checkout at `tree` makes it, by label (cases it has no kernel for
    are left out).

    The tree's packages are imported under their own names while this tree's are set aside, then this tree's are
    put back; the returned calls keep the tree's modules alive through their references.
    """
    if not os.path.isfile(os.path.join(tree, "conformance", "kernels", "registry.py")):
        raise SystemExit(f"--baseline {tree}: not a checkout of this project (no conformance/kernels/registry.py)")
    mine = _project_modules()
    for name in mine:
        del sys.modules[name]
    sys.path.insert(0, os.path.abspath(tree))
    try:
        kernels = importlib.import_module("conformance.kernels.registry")
        infer = importlib.import_module("opset.infer")
        reg = importlib.import_module("opset.load").load_registry()
        calls: dict[str, Callable[[], Any]] = {}
        for c in cases:
            version = reg.try_resolve("ai.onnx", c.op, OPSET)
            entry = None if version is None else kernels.find_entry(version.domain, version.name, version.since)
            if entry is None:
                continue
            attrs = infer.resolve_attributes(version, c.attrs, [None if x is None else list(x.shape) for x in c.inputs])
            calls[c.label] = functools.partial(kernels.call_kernel, entry, version, list(c.inputs), attrs, c.n_out)
    finally:
        sys.path.remove(os.path.abspath(tree))
        for name in _project_modules():
            del sys.modules[name]
        sys.modules.update(mine)
    return calls


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout()


def timed(fn: Callable[[], Any], inner: int = 1) -> tuple[float, Any]:
    t = time.perf_counter()
    out = None
    for _ in range(inner):
        out = fn()
    return (time.perf_counter() - t) / inner, out


def maxdiff(a: Any, b: Any) -> float | str:
    """Largest |a - b| over the outputs both sides have; a string when shapes differ."""
    pairs = list(zip(a, b, strict=False))
    if any(np.shape(x) != np.shape(y) for x, y in pairs):
        return "ERR shape"
    return max(float(np.max(np.abs(np.asarray(x, np.float64) - np.asarray(y, np.float64)))) for x, y in pairs)


def inner_for(first: float) -> int:
    return max(1, int(0.02 / max(first, 1e-6)))  # aim for >= ~20 ms per timed sample


def bench_case(c: Case, cap: float, rounds: int, so: ort.SessionOptions,
               base_fn: Callable[[], Any] | None = None) -> dict[str, Any]:
    model, feeds = build_model(c)
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    res: dict[str, Any] = {"label": c.label, "op": c.op}

    def ort_fn() -> Any:
        return sess.run(None, feeds)

    first, ort_out = timed(ort_fn)
    ort_inner = inner_for(first)

    ref = ReferenceEvaluator(model)

    def ref_fn() -> Any:
        return ref.run(None, feeds)

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    ref_first: float | None
    try:
        ref_first, ref_out = timed(ref_fn)
    except _Timeout:
        ref_first, ref_out = None, None
        res["ref_note"] = f"first run > {cap:.0f}s cap"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    ref_spent = ref_first or 0.0
    ref_inner = inner_for(ref_first) if ref_first else 1

    found = registry_kernel(c.op, OPSET)
    if found is None:
        raise LookupError(f"no kernel for ai.onnx {c.op} at opset {OPSET}")  # main() filters these cases out
    version, entry = found
    inputs = list(c.inputs)
    attrs = resolve_attributes(version, c.attrs, [None if x is None else list(x.shape) for x in inputs])

    def ours_fn() -> Any:  # the node asks for n_out outputs, as the ORT and reference models do
        return call_kernel(entry, version, inputs, attrs, c.n_out)

    ours_first, ours_out = timed(ours_fn)
    ours_inner = inner_for(ours_first)
    res["ours_maxdiff"] = maxdiff(ours_out, ort_out)
    base_inner = 0
    if base_fn is not None:
        base_first, base_out = timed(base_fn)
        base_inner = inner_for(base_first)
        res["base_maxdiff"] = maxdiff(base_out, ort_out)

    ort_s, ref_s, ours_s, base_s = [], [], [], []
    for _ in range(rounds):
        ort_s.append(timed(ort_fn, ort_inner)[0])
        if ref_first is not None and ref_spent + ref_first * ref_inner < cap:
            dt = timed(ref_fn, ref_inner)[0]
            ref_s.append(dt)
            ref_spent += dt * ref_inner
        if base_fn is not None:
            base_s.append(timed(base_fn, base_inner)[0])
        ours_s.append(timed(ours_fn, ours_inner)[0])
    if ref_first is not None and not ref_s:
        ref_s = [ref_first]
        res["ref_note"] = "n=1 (first run only)"

    res["ort_ms"] = statistics.median(ort_s) * 1e3
    res["ref_ms"] = statistics.median(ref_s) * 1e3 if ref_s else None
    res["ours_ms"] = statistics.median(ours_s) * 1e3
    res["ref_over_ort"] = res["ref_ms"] / res["ort_ms"] if res["ref_ms"] else None
    res["ours_over_ort"] = res["ours_ms"] / res["ort_ms"]
    res["base_ms"] = statistics.median(base_s) * 1e3 if base_s else None
    res["base_over_ort"] = res["base_ms"] / res["ort_ms"] if res["base_ms"] else None
    res["ref_maxdiff"] = maxdiff(ref_out, ort_out) if ref_out is not None else None
    res["n"] = f"{len(ort_s) * ort_inner}/{len(ref_s) * ref_inner}/{len(ours_s) * ours_inner}"
    return res


def fmt(v: Any, spec: str = ".3g") -> str:
    if v is None:
        return "-"
    return v if isinstance(v, str) else format(v, spec)


def fmt_ratio(x: float | None) -> str:
    return "-" if x is None else (f"{x:.1f}" if x >= 1 else f"{x:.2f}")


def geomean(xs: list[float]) -> float:
    return float(np.exp(np.mean(np.log(xs))))


def main() -> int:
    ap = argparse.ArgumentParser(parents=[_pre])
    ap.add_argument("--cap", type=float, default=60.0, help="seconds per op for the reference")
    ap.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds per op")
    ap.add_argument("--only", default="", help="comma list of op types")
    ap.add_argument("--json", default="", help="write per-op results here")
    ap.add_argument("--baseline", default="", help="a checkout of another commit whose kernels are timed alongside")
    a = ap.parse_args()

    so = ort.SessionOptions()
    if _THREADS > 0:
        so.intra_op_num_threads = _THREADS
        so.inter_op_num_threads = 1
    cases, skipped = [], []
    for c in make_cases():
        if a.only and c.op not in a.only.split(","):
            continue
        if registry_kernel(c.op, OPSET) is None:
            skipped.append(f"{c.label} (no kernel for ai.onnx {c.op} at opset {OPSET} in our registry)")
        else:
            cases.append(c)
    base = baseline_calls(a.baseline, cases) if a.baseline else {}
    # pay one-off import costs before timing anything
    warm, _ = build_model(Case("warmup", "Relu", {}, [np.zeros(4, np.float32)]))
    ReferenceEvaluator(warm)
    ort.InferenceSession(warm.SerializeToString(), so, providers=["CPUExecutionProvider"])

    print(f"# onnx {onnx.__version__}  onnxruntime {ort.__version__}  numpy {np.__version__}  "
          f"threads={'default' if _THREADS <= 0 else _THREADS}  opset {OPSET}  cap {a.cap:.0f}s")
    cols = ["case", "ort_ms", "ref_ms", "ours_ms", "ours/ort", "ref/ort", "n ort/ref/ours", "ours_maxdiff",
            "ref_maxdiff"]
    if a.baseline:
        cols[5:5] = ["base_ms", "base/ort"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    results = []
    for c in cases:
        r = bench_case(c, a.cap, a.rounds, so, base.get(c.label))
        results.append(r)
        label = c.label + (f" ({r['ref_note']})" if "ref_note" in r else "")
        row = [label, fmt(r["ort_ms"]), fmt(r["ref_ms"]), fmt(r["ours_ms"]), fmt_ratio(r["ours_over_ort"]),
               fmt_ratio(r["ref_over_ort"]), r["n"], fmt(r["ours_maxdiff"], ".1e"), fmt(r["ref_maxdiff"], ".1e")]
        if a.baseline:
            row[5:5] = [fmt(r["base_ms"]), fmt_ratio(r["base_over_ort"])]
        print("| " + " | ".join(row) + " |", flush=True)
    if results:
        ours = [r["ours_over_ort"] for r in results]
        refs = [r["ref_over_ort"] for r in results if r["ref_over_ort"]]
        worst = max(results, key=lambda r: r["ours_over_ort"])
        print(f"\ngeomean ours/ort over {len(ours)} ops: {fmt_ratio(geomean(ours))}x   "
              f"max {fmt_ratio(worst['ours_over_ort'])}x ({worst['label']})")
        if refs:
            print(f"geomean ref/ort over {len(refs)} ops: {fmt_ratio(geomean(refs))}x")
        mean, top = geomean(ours), worst["ours_over_ort"]
        print(f"goal (issue 15): geomean {mean:.2f}x <= 2x: {'met' if mean <= 2 else 'NOT met'}; "
              f"max {top:.2f}x <= 10x: {'met' if top <= 10 else 'NOT met'}")
        bases = [r for r in results if r["base_over_ort"]]
        if bases:
            worst_base = max(bases, key=lambda r: r["base_over_ort"])
            print(f"geomean base/ort over {len(bases)} ops: {fmt_ratio(geomean([r['base_over_ort'] for r in bases]))}x"
                  f"   max {fmt_ratio(worst_base['base_over_ort'])}x ({worst_base['label']})   (base: {a.baseline})")
    for s in skipped:
        print(f"skipped: {s}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"onnx": onnx.__version__, "onnxruntime": ort.__version__, "threads": _THREADS,
                       "baseline": a.baseline or None,
                       "skipped": skipped, "results": results}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
