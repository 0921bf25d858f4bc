"""com.microsoft TorchEmbedding. onnxruntime has no CPU kernel, so the kernel is checked against the equivalent ai.onnx
Gather (axis 0) run by onnxruntime; padding_idx and scale_grad_by_freq (gradient only) leave Y alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    one_node_model,
    oracle_params,
    problem_checks,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "TorchEmbedding"
data = Seeded(43)


def gather(weight: np.ndarray, indices: np.ndarray) -> Any:
    model, feeds = one_node_model("Gather", 13, [weight, indices], {"axis": 0}, 1)
    return lambda: run_onnxruntime(model, feeds)


def case(weight: np.ndarray, indices: np.ndarray, extra: list[Any], id: str) -> OracleCase:
    return OracleCase(OP, {}, [weight, indices, *extra], (1,), oracle=gather(weight, indices), rtol=1e-6, id=id,
                      domain=DOMAIN)


W = data.f32(5, 3)
IDX = data.ints(0, 5, (2, 4), np.int64)
CASES = [
    case(W, IDX, [], "float"),
    case(W, np.array(3, np.int64), [], "scalar_index"),
    case(W, IDX, [np.array(1, np.int64), np.array(True)], "padding_and_freq"),
    case(W, IDX, [np.array(-1, np.int64)], "negative_padding"),
    case((W * 10).astype(np.int32), IDX, [], "int32"),
    case(W.astype(np.float16), IDX[:0], [], "empty_indices"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_gather(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_shape_formula_is_indices_then_embedding() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [W, IDX], {}) == [[2, 4, 3]]


@pytest.mark.parametrize(("inputs", "values", "check"), [
    pytest.param([W, IDX], {"indices": [0, 5]}, "torchembedding_c1", id="index_past_table"),
    pytest.param([W, IDX, [2]], {}, "torchembedding_c2", id="padding_not_scalar"),
    pytest.param([W, IDX, []], {"padding_idx": [5]}, "torchembedding_c3", id="padding_past_table"),
    pytest.param([W, IDX, None, [2]], {}, "torchembedding_c4", id="freq_not_scalar"),
])
def test_invalid_node_reports_the_check(inputs: list[Any], values: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), inputs, {}, values=values)
