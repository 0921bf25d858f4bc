#!/usr/bin/env python
"""Shape inference of real models: `opset.validate.check_model` (which infers every value's shape as it validates)
against `onnx.shape_inference.infer_shapes(model, data_prop=True)`, same process, same loaded ModelProto.

Corpus: every .onnx under --corpus (default build/real-models, as `python -m tests.real_models.make_models` writes
it: torch's exports of BERT, GPT-2, Llama and a convnet, onnxruntime's optimizer at three levels, its transformer
optimizer and quantization tool, skl2onnx's conversions), and the light models of onnx's backend test data as
onnxruntime's optimizer (all level) and quantizer (dynamic, uint8) write them (made at run time in child processes).

Ours is a first validation: everything validation keeps across calls dropped before each timed call
(`forget_outcomes()`), the registry loaded before timing (onnx's schemas are static). Times are medians over --reps.
Of the main graph's node outputs (`values`), `*_ranked` counts those each side gives a shape (a rank) and `*_numeric`
those whose dims are all numbers: what each side found, not who is right (tests/real_models compares both with
onnxruntime's own outputs).

Run: python bench/infer.py [--reps 5] [--corpus build/real-models] [--no-light]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.light import light_name, light_paths
from bench.validate import median_ms, ort_optimized
from opset.validate import check_model, forget_outcomes
from opset.validate.facts import Facts


def onnx_counts(model: onnx.ModelProto, outputs: set[str]) -> tuple[int, int]:
    """Of the main graph's node outputs: how many onnx's inferred model gives a rank, and a shape of numbers only."""
    ranked = numeric = 0
    for v in [*model.graph.value_info, *model.graph.output]:
        t = v.type.tensor_type if v.type.HasField("tensor_type") else None
        if v.name not in outputs or t is None or not t.HasField("shape"):
            continue
        outputs = outputs - {v.name}
        ranked += 1
        numeric += all(d.HasField("dim_value") for d in t.shape.dim)
    return ranked, numeric


def our_counts(facts: dict[str, Facts], outputs: set[str]) -> tuple[int, int]:
    """The same counts from validation's facts (a dim is a number or a symbol)."""
    shapes = [facts[n].shape for n in outputs if n in facts and facts[n].shape is not None]
    return len(shapes), sum(all(type(d) is int for d in s) for s in shapes if s is not None)


def row(name: str, model: onnx.ModelProto, reps: int) -> dict[str, object]:
    outputs = {o for node in model.graph.node for o in node.output if o}
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
        onnx_ms: float | str = median_ms(lambda: onnx.shape_inference.infer_shapes(model, data_prop=True), reps)
        theirs: tuple[int, int] | None = onnx_counts(inferred, outputs)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError) as e:
        onnx_ms, theirs = "refused: " + str(e).strip().splitlines()[0][:50], None
    forget_outcomes()
    result = check_model(model)
    ours_ms = median_ms(lambda: check_model(model), reps, before=forget_outcomes)
    ours = our_counts(result.facts, outputs)
    return {"model": name, "nodes": len(model.graph.node), "values": len(outputs), "onnx_ms": onnx_ms,
            "ours_ms": ours_ms, "ratio": ours_ms / onnx_ms if isinstance(onnx_ms, float) else "-",
            "onnx_ranked": theirs[0] if theirs else "-", "ours_ranked": ours[0],
            "onnx_numeric": theirs[1] if theirs else "-", "ours_numeric": ours[1]}


def _light_variant(path: str, kind: str) -> bytes:
    """A light model as onnxruntime's optimizer (all level) or quantizer (dynamic uint8, after the basic level's
    constant folding: the light models make their weights with ConstantOfShape, and the quantizer needs them as
    initializers) writes it."""
    if kind == "ort all":
        data: bytes = ort_optimized(path, "ORT_ENABLE_ALL").SerializeToString()
        return data
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    logging.getLogger().setLevel(logging.ERROR)  # its advice on pre-processing and on opset 9 models
    with tempfile.TemporaryDirectory() as folder:
        folded, out = os.path.join(folder, "folded.onnx"), os.path.join(folder, "out.onnx")
        onnx.save(ort_optimized(path, "ORT_ENABLE_BASIC"), folded)
        quantize_dynamic(folded, out, weight_type=QuantType.QUInt8)
        model = onnx.load(out)
    model.ir_version = max(model.ir_version, 4)  # the initializers left the graph inputs: IR 4 allows that
    data = model.SerializeToString()
    return data


def light_variants() -> list[tuple[str, onnx.ModelProto]]:
    """Made in a child process: importing onnxruntime here would slow this process's Python work (bench/validate.py)."""
    jobs = [(str(p), kind) for p in light_paths() for kind in ("ort all", "quantized")]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        made = pool.starmap(_light_variant, jobs)
    return [(f"{light_name(p)} {kind}", onnx.load_from_string(data))
            for (p, kind), data in zip(jobs, made, strict=True)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--corpus", default="build/real-models")
    ap.add_argument("--no-light", action="store_true", help="leave out the light models' optimized and quantized forms")
    a = ap.parse_args()
    from opset.validate import default_registry

    default_registry()  # the registry check_model uses, loaded before timing (onnx's schemas are static)
    models = [(p.stem, onnx.load(str(p))) for p in sorted(Path(a.corpus).rglob("*.onnx"))] if a.corpus else []
    if a.corpus and not models:
        sys.exit(f"{a.corpus}: no .onnx models (python -m tests.real_models.make_models writes them)")
    corpus_count = len(models)
    if not a.no_light:
        models += light_variants()
    print(f"# onnx {onnx.__version__}; {len(models)} models; reps {a.reps} (median ms)\n")
    rows = [row(name, model, a.reps) for name, model in models]
    cols = ["model", "nodes", "values", "onnx_ms", "ours_ms", "ratio", "onnx_ranked", "ours_ranked", "onnx_numeric",
            "ours_numeric"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    corpus_names = {name for name, _ in models[:corpus_count]}
    for label, group in (("the real-model corpus", [r for r in rows if r["model"] in corpus_names]),
                         ("the light models' optimized and quantized forms",
                          [r for r in rows if r["model"] not in corpus_names]),
                         ("all", rows)):
        timed = [r for r in group if isinstance(r["onnx_ms"], float)]
        if not timed:
            continue
        onnx_total = sum(float(str(r["onnx_ms"])) for r in timed)
        ours_total = sum(float(str(r["ours_ms"])) for r in timed)
        over = sum(1 for r in timed if float(str(r["ratio"])) > 1.0)
        print(f"summed over {label} ({len(timed)} models onnx infers): onnx {onnx_total:.1f} ms, ours "
              f"{ours_total:.1f} ms, ratio {ours_total / onnx_total:.2f} (goal: at most 1.0); {over} models over 1.0")

if __name__ == "__main__":
    main()
