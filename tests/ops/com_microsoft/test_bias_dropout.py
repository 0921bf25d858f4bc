"""com.microsoft BiasDropout: onnxruntime runs it on CUDA only. In inference (training_mode false or absent) the kernel
is checked against Add -> Add run by onnxruntime's CPU provider (output data + bias + residual, the mask keeping
everything); in training the mask is random: the output agrees with the mask as the dropout law says
(output = (data + bias) * mask / (1 - ratio) + residual), the law itself is tested in tests/ops/test_random_laws.py;
the shape formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from conformance.runner.random_outputs import random_call, random_output_problems
from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, run, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "BiasDropout"
f32 = Seeded(37).f32
X, B, R = f32(2, 3, 8), f32(8), f32(2, 3, 8)


def added(data: np.ndarray, bias: np.ndarray, residual: np.ndarray | None) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        feeds = {"data": data, "bias": bias}
        nodes = [node("Add", ["data", "bias"], ["y" if residual is None else "v"])]
        if residual is not None:
            feeds["residual"] = residual
            nodes.append(node("Add", ["v", "residual"], ["y"]))
        return run_ort_graph(nodes, feeds, ["y"])

    return run_it


def _case(inputs: list[Any], ident: str, rtol: float = 1e-6) -> OracleCase:
    return OracleCase(OP, {}, inputs, (1,), oracle=added(inputs[0], inputs[1], inputs[2]), rtol=rtol, id=ident,
                      domain=DOMAIN)


CASES = [
    _case([X, B, R], "inference-residual"),
    _case([X, f32(2, 3, 8), None], "same-shape-bias"),
    _case([X, B, R, np.array(0.75, np.float32), np.array(False)], "training-false-ignores-ratio"),
    _case([x.astype(np.float16) for x in (X, B, R)], "fp16", rtol=1e-3),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_inference_mask_keeps_everything() -> None:
    _, mask = run(DOMAIN, OP, 1, [X, B, R])
    assert mask.dtype == np.bool_ and mask.shape == X.shape and mask.all()


@pytest.mark.parametrize("residual", [R, None], ids=["residual", "no-residual"])
@pytest.mark.parametrize("ratio", [0.25, 0.75])
def test_training_output_agrees_with_its_mask(residual: np.ndarray | None, ratio: float) -> None:
    v = version(DOMAIN, OP, 1)
    inputs = [X, B, residual, np.array(ratio, np.float32), np.array(True)]
    output, mask = run(DOMAIN, OP, 1, inputs, seed=3)
    base = X.astype(np.float64) + B
    want = np.where(mask, base / (1 - ratio), 0.0) + (0.0 if residual is None else residual)
    np.testing.assert_allclose(output, want.astype(np.float32), rtol=1e-6)
    assert 0 < mask.sum() < mask.size
    call = random_call(v, inputs, {"seed": 3})
    assert call is not None
    assert random_output_problems(call, {"output": output, "mask": mask}) == []
    wrong = output.copy()
    wrong[mask] += 1.0
    assert random_output_problems(call, {"output": wrong, "mask": mask}) != []


def test_the_seed_fixes_the_draw() -> None:
    inputs = [X, B, R, np.array(0.5, np.float32), np.array(True)]
    first, second = run(DOMAIN, OP, 1, inputs, seed=7), run(DOMAIN, OP, 1, inputs, seed=7)
    np.testing.assert_array_equal(first[1], second[1])


def test_shape_formula() -> None:
    shapes = formula_shapes(version(DOMAIN, OP, 1), [X, B, R])
    assert shapes == [list(X.shape), list(X.shape)]


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[2, 3], [2]], "biasdropout_c2", id="bias-length"),
    pytest.param([[2, 3], [1, 3]], "biasdropout_c2", id="bias-rank"),
    pytest.param([[2, 3], [3], [3, 2]], "biasdropout_c3", id="residual-shape"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
