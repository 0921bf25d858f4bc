"""com.microsoft GemmaRotaryEmbedding. onnxruntime has only a CUDA kernel, so the kernel is checked against the op's
defining onnxscript (Sin, Cos, Cast to float16, Unsqueeze, Mul, Add) as an ai.onnx model run by onnxruntime."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    oracle_params,
    problem_checks,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "GemmaRotaryEmbedding"
data = Seeded(41)


def onnxscript_model(inputs: list[np.ndarray]) -> Any:
    names = ["emb", "q", "q_rot", "k", "k_rot"]
    half = TensorProto.FLOAT16
    nodes = [helper.make_node("Sin", ["emb"], ["sin"]), helper.make_node("Cast", ["sin"], ["sin16"], to=half),
             helper.make_node("Cos", ["emb"], ["cos"]), helper.make_node("Cast", ["cos"], ["cos16"], to=half),
             helper.make_node("Unsqueeze", ["sin16", "one"], ["usin"]),
             helper.make_node("Unsqueeze", ["cos16", "one"], ["ucos"])]
    for side, out in (("q", "out1"), ("k", "out2")):
        nodes += [helper.make_node("Mul", [side, "ucos"], [f"{side}c"]),
                  helper.make_node("Mul", [f"{side}_rot", "usin"], [f"{side}s"]),
                  helper.make_node("Add", [f"{side}c", f"{side}s"], [out])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
                     for n, a in zip(names, inputs, strict=True)],
        [onnx.ValueInfoProto(name="out1"), onnx.ValueInfoProto(name="out2")],
        initializer=[numpy_helper.from_array(np.array([1], np.int64), "one")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    feeds = dict(zip(names, inputs, strict=True))
    return lambda: run_onnxruntime(model, feeds)


def case(b: int, n: int, nk: int, s: int, d: int, id: str) -> OracleCase:
    emb = data.f32(b, s, d) * 3
    inputs = [emb] + [data.f32(b, h, s, d).astype(np.float16) for h in (n, n, nk, nk)]
    return OracleCase(OP, {}, inputs, (1,), n_out=2, oracle=onnxscript_model(inputs), rtol=1e-3, id=id, domain=DOMAIN)


CASES = [case(2, 3, 3, 4, 8, "mha"), case(1, 4, 2, 3, 6, "gqa"), case(1, 1, 1, 1, 1, "single")]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_the_onnxscript(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formulas_are_q_and_k() -> None:
    c = CASES[1]
    assert formula_shapes(version(DOMAIN, OP, 1), c.inputs, {}) == [list(c.inputs[1].shape), list(c.inputs[3].shape)]


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[1, 3, 8], [1, 2, 3, 8], [1, 2, 3, 4], [1, 2, 3, 8], [1, 2, 3, 8]], "gemmarotaryembedding_c1",
                 id="q_rot_shape"),
    pytest.param([[1, 3, 8], [1, 2, 3, 8], [1, 2, 3, 8], [1, 2, 3, 8], [1, 1, 3, 8]], "gemmarotaryembedding_c2",
                 id="k_rot_shape"),
    pytest.param([[1, 3, 8], [1, 2, 4, 8], [1, 2, 4, 8], [1, 2, 3, 8], [1, 2, 3, 8]], "binding", id="seq_mismatch"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
