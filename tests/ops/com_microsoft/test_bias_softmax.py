"""com.microsoft BiasSoftmax: onnxruntime runs it on CUDA and ROCm only, so the kernel is checked against the
equivalent Add -> Softmax (opset 11: coerced to 2-D at axis) that onnxruntime's CPU provider runs, for biases that
repeat over inner batch dims (is_inner_broadcast = 1) and over outer ones (0), negative axes and float16; the shape
formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BiasSoftmax"
f32 = Seeded(20).f32


def subgraph(data: np.ndarray, bias: np.ndarray, axis: int) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        nodes = [node("Add", ["data", "bias"], ["sum"]), node("Softmax", ["sum"], ["y"], axis=axis)]
        return run_ort_graph(nodes, {"data": data, "bias": bias}, ["y"], opset=11)

    return run_it


def _case(data: np.ndarray, bias: np.ndarray, axis: int, inner: int, ident: str, rtol: float = 1e-5
          ) -> OracleCase:
    attrs = {"axis": axis, "is_inner_broadcast": inner}
    return OracleCase(OP, attrs, [data, bias], (1,), oracle=subgraph(data, bias, axis), rtol=rtol, id=ident,
                      domain=DOMAIN)


D = f32(2, 3, 4, 5)
CASES = [
    _case(D, f32(2, 1, 4, 5), 2, 1, "inner-attention-mask"),
    _case(D, f32(2, 1, 1, 5), 3, 1, "inner-two-dims"),
    _case(D, f32(1, 3, 4, 5), 2, 0, "outer-ones"),
    _case(D, f32(4, 5), -2, 0, "outer-dropped-negative-axis"),
    _case(D, f32(2, 3, 4, 5), 1, 1, "full-bias"),
    _case(D, f32(1, 3, 4, 5), 1, 0, "softmax-over-three-dims"),
    _case(D.astype(np.float16), f32(2, 1, 4, 5).astype(np.float16), -2, 1, "fp16", 2e-3),
    _case(D.astype(np.float64), f32(5).astype(np.float64), 3, 0, "double-row-bias", 1e-12),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_inner_and_outer_repeat_differently() -> None:
    """With bias rows [b0, b1] over four data rows, inner gives b0 b0 b1 b1 and outer b0 b1 b0 b1."""
    data = np.zeros((4, 2), np.float32)
    bias = np.array([[0, 1], [1, 0]], np.float32)
    (inner,) = run(DOMAIN, OP, 1, [data, bias], axis=1, is_inner_broadcast=1)
    (outer,) = run(DOMAIN, OP, 1, [data, bias], axis=1, is_inner_broadcast=0)
    hi, lo = np.exp(1) / (1 + np.exp(1)), 1 / (1 + np.exp(1))
    np.testing.assert_allclose(inner[:, 1], [hi, hi, lo, lo], rtol=1e-6)
    np.testing.assert_allclose(outer[:, 1], [hi, lo, hi, lo], rtol=1e-6)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES[:4]])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == list(case.oracle()[0].shape)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 3, 4], [2, 3, 4]], {"axis": 3, "is_inner_broadcast": 0}, "biassoftmax_c1", id="axis"),
    pytest.param([[2, 3, 4], [3]], {"axis": 2, "is_inner_broadcast": 0}, "biassoftmax_c2", id="partial-row"),
    pytest.param([[2, 3, 4], [4, 4]], {"axis": 2, "is_inner_broadcast": 0}, "biassoftmax_c2", id="rows-do-not-divide"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
