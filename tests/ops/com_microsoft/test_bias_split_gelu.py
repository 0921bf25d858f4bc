"""com.microsoft BiasSplitGelu: onnxruntime runs it on CUDA only, so the kernel is checked against
Add -> Split -> Gelu -> Mul (com.microsoft Gelu, which the CPU provider runs); the shape formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BiasSplitGelu"
f32 = Seeded(22).f32


def subgraph(x: np.ndarray, bias: np.ndarray) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        nodes = [node("Add", ["x", "bias"], ["v"]), node("Split", ["v"], ["left", "right"], axis=-1, num_outputs=2),
                 node("Gelu", ["right"], ["g"], domain="com.microsoft"), node("Mul", ["left", "g"], ["y"])]
        return run_ort_graph(nodes, {"x": x, "bias": bias}, ["y"])

    return run_it


INPUTS = [f32(2, 3, 8) * 2, f32(8)]
HALF = [x.astype(np.float16) for x in INPUTS]
CASES = [
    OracleCase(OP, {}, INPUTS, (1,), oracle=subgraph(*INPUTS), rtol=1e-5, id="float", domain=DOMAIN),
    OracleCase(OP, {}, HALF, (1,), oracle=subgraph(*HALF), rtol=5e-3, id="fp16", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_shape_formula_matches_the_subgraph() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), INPUTS)[0] == list(subgraph(*INPUTS)()[0].shape)


def test_kernel_rejects_an_odd_hidden_dim() -> None:
    with pytest.raises(ValueError, match="even"):
        run(DOMAIN, OP, 1, [f32(2, 3, 7), f32(7)])


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3, 7], [7]], "biassplitgelu_c1", id="odd"),
    pytest.param([[2, 3, 8], [4]], "binding", id="bias-length"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
