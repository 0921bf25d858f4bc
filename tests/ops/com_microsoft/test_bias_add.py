"""com.microsoft BiasAdd: onnxruntime runs it on CUDA only, so the kernel is checked against Add -> Add on
onnxruntime's CPU provider (float, float16); the shape formula; rejected nodes and inputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BiasAdd"
f32 = Seeded(21).f32


def subgraph(x: np.ndarray, bias: np.ndarray, skip: np.ndarray) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        nodes = [node("Add", ["x", "bias"], ["xb"]), node("Add", ["xb", "skip"], ["y"])]
        return run_ort_graph(nodes, {"x": x, "bias": bias, "skip": skip}, ["y"])

    return run_it


INPUTS = [f32(2, 3, 8), f32(8), f32(2, 3, 8)]
HALF = [x.astype(np.float16) for x in INPUTS]
CASES = [
    OracleCase(OP, {}, INPUTS, (1,), oracle=subgraph(*INPUTS), rtol=1e-6, id="float", domain=DOMAIN),
    OracleCase(OP, {}, HALF, (1,), oracle=subgraph(*HALF), rtol=2e-3, id="fp16", domain=DOMAIN),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_shape_formula_matches_the_subgraph() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), INPUTS)[0] == list(subgraph(*INPUTS)()[0].shape)


@pytest.mark.parametrize("inputs", [
    pytest.param([f32(2, 8), f32(8), f32(2, 8)], id="2d"),
    pytest.param([f32(2, 3, 8), f32(4), f32(2, 3, 8)], id="bias-length"),
    pytest.param([f32(2, 3, 8), f32(8), f32(1, 3, 8)], id="skip-shape"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray]) -> None:
    with pytest.raises(ValueError, match="BiasAdd"):
        run(DOMAIN, OP, 1, inputs)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3, 8], [4], [2, 3, 8]], "binding", id="bias-length"),
    pytest.param([[2, 3, 8], [8], [2, 4, 8]], "binding", id="skip-shape"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
