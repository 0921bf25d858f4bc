"""com.microsoft GemmFastGelu: onnxruntime runs it on CUDA and ROCm only, so the kernel is checked against
MatMul -> FastGelu (com.microsoft FastGelu with its bias, which the CPU provider runs), with and without bias and
in float16; the shape formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "GemmFastGelu"
f32 = Seeded(23).f32


def subgraph(x: np.ndarray, w: np.ndarray, bias: np.ndarray | None) -> Callable[[], list[Any]]:
    feeds = {"x": x, "w": w} if bias is None else {"x": x, "w": w, "bias": bias}

    def run_it() -> list[Any]:
        nodes = [node("MatMul", ["x", "w"], ["p"]),
                 node("FastGelu", ["p", *(["bias"] if bias is not None else [])], ["y"], domain="com.microsoft")]
        return run_ort_graph(nodes, feeds, ["y"])

    return run_it


def _case(inputs: list[Any], ident: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle=subgraph(*inputs), rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case([f32(2, 3, 4), f32(4, 5), f32(5)], "bias"),
    _case([f32(3, 4), f32(4, 6), None], "no-bias"),
    _case([f32(4), f32(4, 3), f32(3)], "vector-x"),
    _case([f32(2, 3, 4).astype(np.float16), f32(4, 5).astype(np.float16), f32(5).astype(np.float16)], "fp16", 5e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == list(case.oracle()[0].shape)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [4, 5]], "gemmfastgelu_c1", id="inner-dims"),
    pytest.param([[2, 4], [4, 5], [4]], "gemmfastgelu_c2", id="bias-length"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
