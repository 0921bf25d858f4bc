"""Diagnostics and results unchanged by the speed work: every model of a corpus validated on the fast path (formula
results memoised per node signature, a clean node's outcome replayed for later nodes of the same signature,
formulas compiled into closures) and on the plain path (every node checked afresh, formulas walked) gives the
same diagnostics, in the same order, and the same validated facts and inferred shapes.

The corpus: onnx's light models, two of them as onnxruntime's optimizer writes them (com.microsoft's FusedConv,
com.microsoft.nchwc's layout ops), the benchmark's chain, the broken and clean models of tests/validate/corpus.py,
sequence and optional pipelines (with fresh dims drawn), and models made to tempt a signature that leaves something
out (nodes alike but for one attribute, one constant input value, one declared output, one input type)."""

from __future__ import annotations

import glob
import os
from collections.abc import Callable

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from bench.validate import chain_model, ort_optimized
from opset.validate import check_model, forget_outcomes
from tests.helpers import node_diagnostics
from tests.validate.corpus import CASES, CLEAN

LIGHT_DIR = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
LIGHT = sorted(glob.glob(os.path.join(LIGHT_DIR, "*.onnx")))
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto] | None = None, value_info: list[onnx.ValueInfoProto] | None = None
           ) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits or [], value_info=value_info or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def near_twins() -> onnx.ModelProto:
    """Pairs of nodes that read the same shapes but differ in one thing the result depends on: a pool's kernel,
    a Reshape's constant shape, a Relu's declared output (one contradicts the formula), a Cast's target type, an
    empty optional input, one input's type (float against int64, a type error once only)."""
    x = helper.make_tensor_value_info("x", F, [1, 4, 8, 8])
    i = helper.make_tensor_value_info("i", I64, [1, 4, 8, 8])
    inits = [numpy_helper.from_array(np.array([1, 4, 64], np.int64), "s1"),
             numpy_helper.from_array(np.array([1, 256], np.int64), "s2"),
             numpy_helper.from_array(np.array(0.5, np.float32), "ratio")]
    nodes = [helper.make_node("MaxPool", ["x"], ["p1"], kernel_shape=[2, 2]),
             helper.make_node("MaxPool", ["x"], ["p2"], kernel_shape=[3, 3]),
             helper.make_node("Reshape", ["x", "s1"], ["r1"]),
             helper.make_node("Reshape", ["x", "s2"], ["r2"]),
             helper.make_node("Relu", ["x"], ["u1"]),
             helper.make_node("Relu", ["x"], ["u2"]),
             helper.make_node("Cast", ["x"], ["c1"], to=I64),
             helper.make_node("Cast", ["x"], ["c2"], to=TensorProto.DOUBLE),
             helper.make_node("Dropout", ["x", "ratio"], ["d1"]),
             helper.make_node("Dropout", ["x", ""], ["d2"]),
             helper.make_node("Add", ["x", "x"], ["a1"]),
             helper.make_node("Add", ["x", "i"], ["a2"]),
             helper.make_node("Add", ["x", "x"], ["a3"])]
    outputs = [helper.make_tensor_value_info(n, F, None) for n in ("p1", "p2", "r1", "r2", "u1", "d1", "d2", "a1")]
    declared = [helper.make_tensor_value_info("u2", F, [1, 4, 8, 9])]
    return _model(nodes, [x, i], outputs, inits, declared)


def containers() -> onnx.ModelProto:
    """Sequences and optionals: a split into a sequence read back, two sequences of elements that disagree on a dim
    (each draws a fresh dim for it, so neither may be replayed), optionals made and read."""
    x = helper.make_tensor_value_info("x", F, [3, 6])
    y = helper.make_tensor_value_info("y", F, [3, 2])
    inits = [numpy_helper.from_array(np.array([1, 5], np.int64), "split"),
             numpy_helper.from_array(np.array(0, np.int64), "first")]
    nodes = [helper.make_node("SplitToSequence", ["x", "split"], ["parts"], axis=1),
             helper.make_node("SequenceAt", ["parts", "first"], ["head"]),
             helper.make_node("SequenceConstruct", ["x", "y"], ["mixed"]),
             helper.make_node("Identity", ["mixed"], ["mixed1"]),
             helper.make_node("Identity", ["mixed"], ["mixed2"]),
             helper.make_node("Optional", ["head"], ["maybe"]),
             helper.make_node("OptionalHasElement", ["maybe"], ["has"]),
             helper.make_node("OptionalGetElement", ["maybe"], ["got"]),
             helper.make_node("Optional", ["y"], ["maybe2"]),
             helper.make_node("OptionalGetElement", ["maybe2"], ["got2"])]
    outputs = [helper.make_tensor_value_info(n, F, None) for n in ("got", "got2")] + \
        [helper.make_tensor_sequence_value_info(n, F, None) for n in ("mixed1", "mixed2")] + \
        [helper.make_tensor_value_info("has", TensorProto.BOOL, [])]
    return _model(nodes, [x, y], outputs, inits)


def _light(name: str) -> Callable[[], onnx.ModelProto]:
    return lambda: onnx.load(os.path.join(LIGHT_DIR, f"light_{name}.onnx"))


CORPUS: dict[str, tuple[Callable[[], onnx.ModelProto], str | None]] = {
    **{f"light_{os.path.basename(p)[6:-5]}": (_light(os.path.basename(p)[6:-5]), None) for p in LIGHT},
    "ort_extended_squeezenet": (lambda: ort_optimized(os.path.join(LIGHT_DIR, "light_squeezenet.onnx"),
                                                    "ORT_ENABLE_EXTENDED"), None),
    "ort_all_inception_v1": (lambda: ort_optimized(os.path.join(LIGHT_DIR, "light_inception_v1.onnx"),
                                                   "ORT_ENABLE_ALL"), None),
    "chain_2000": (lambda: chain_model(2000), None),
    "near_twins": (near_twins, None),
    "containers": (containers, None),
    **{f"broken_{case.name}": (case.build, case.profile) for case in CASES},
    **{f"clean_{name}": entry for name, entry in CLEAN.items()},
}


def test_the_corpus_reaches_every_kind_of_model() -> None:
    assert len(LIGHT) == 9
    assert len(CORPUS) == 9 + 2 + 3 + len(CASES) + len(CLEAN)


def test_the_near_twins_differ_where_they_should() -> None:
    """The tempting pairs really differ on the plain path: otherwise a key leaving their difference out would
    not be caught by the comparison below."""
    result = check_model(near_twins(), fast=False)
    shapes = result.inferred
    assert shapes["p1"] != shapes["p2"] and shapes["r1"] != shapes["r2"]
    assert result.facts["c1"].type != result.facts["c2"].type
    assert result.facts["a1"].type == result.facts["a3"].type == "tensor(float)"
    checks = [(d.check, d.node_index) for d in result.diagnostics]
    assert ("shape_mismatch", 5) in checks and ("shape_mismatch", 4) not in checks
    assert any(c == "type_mismatch" and i == 11 for c, i in checks), checks


def test_the_containers_draw_fresh_dims_and_validate_clean() -> None:
    result = check_model(containers(), fast=False)
    assert node_diagnostics(result.diagnostics) == []
    assert result.facts["head"].shape == (3, 1) and result.facts["got2"].shape == (3, 2)
    mixed1, mixed2 = result.facts["mixed1"].shape, result.facts["mixed2"].shape
    assert mixed1 is not None and mixed2 is not None and mixed1[0] == mixed2[0] == 3
    assert mixed1[1] != mixed2[1]  # each Identity's elements disagree on dim 1: each draws its own fresh dim


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_fast_and_plain_paths_agree(name: str) -> None:
    build, profile = CORPUS[name]
    model = build()
    fast = check_model(model, profile)
    plain = check_model(model, profile, fast=False)
    assert fast.diagnostics == plain.diagnostics
    assert list(fast.facts.items()) == list(plain.facts.items())
    assert list(fast.inferred.items()) == list(plain.inferred.items())


def test_outcomes_kept_across_models_change_nothing() -> None:
    """One process validating the whole corpus forward and then backward, keeping clean node outcomes from model to
    model (`opset.validate.outcomes`): every result is the plain path's, and later models do replay earlier ones."""
    from opset.validate import _table
    from opset.validate.run import kept_outcomes

    models = {name: (build(), profile) for name, (build, profile) in sorted(CORPUS.items())}
    plain = {name: check_model(model, profile, fast=False) for name, (model, profile) in models.items()}
    forget_outcomes()
    kept = kept_outcomes(_table(None))
    for name in [*models, *reversed(models)]:
        model, profile = models[name]
        fast = check_model(model, profile)
        assert fast.diagnostics == plain[name].diagnostics, name
        assert list(fast.facts.items()) == list(plain[name].facts.items()), name
        assert list(fast.inferred.items()) == list(plain[name].inferred.items()), name
    assert len(kept) > 500
