"""LRN: the kernel against onnx.reference/onnxruntime and the definition, shape formulas against onnx, rejections."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    assert_versions_exercised,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "LRN"
f32 = Seeded(2024).f32
CUBE = f32(5, 5, 3, 2)  # the reference LRN loops over range(N) for the channels: N >= C keeps it right

RTOL = 1e-6  # OracleCase takes it for atol too: at least as strict as the former rtol=1e-5, atol=1e-6
CASES = [
    OracleCase(OP, dict(size=3), [CUBE], onnx_versions(OP), rtol=RTOL, id="size3"),
    OracleCase(OP, dict(size=2, alpha=0.01, beta=0.5, bias=2.0), [CUBE], onnx_versions(OP), rtol=RTOL, id="even"),
    OracleCase(OP, dict(size=5, alpha=1e-4, beta=0.75, bias=1.0), [f32(2, 7, 5, 4)], onnx_versions(OP),
               oracle="ort", rtol=RTOL, id="alexnet"),
    OracleCase(OP, dict(size=9, alpha=0.5), [f32(1, 4, 3, 3)], onnx_versions(OP), oracle="ort", rtol=RTOL,
               id="window_wider_than_c"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_every_version_has_a_kernel_case() -> None:
    assert_versions_exercised(OP, {v for c in CASES for v in c.since})


def test_kernel_matches_the_definition_on_any_rank() -> None:
    """The windowed sum of squares, written as the doc states it, on a rank-3 and a rank-5 input."""
    for x, size in ((f32(2, 6, 5), 4), (f32(1, 5, 2, 3, 2), 3)):
        channels = x.shape[1]
        square_sum = np.zeros_like(x)
        for c in range(channels):
            lo, hi = max(0, c - (size - 1) // 2), min(channels - 1, c + size // 2)
            square_sum[:, c] = np.sum(x[:, lo:hi + 1] ** 2, axis=1)
        want = x / (1.0 + 0.1 / size * square_sum) ** 0.75
        (got,) = run("ai.onnx", OP, 13, [x], size=size, alpha=0.1)
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"LRN rank {x.ndim} size {size}")


@pytest.mark.parametrize(("opset", "inputs", "attrs", "message"), [
    pytest.param(13, [f32(4)], {"size": 3}, "rank", id="v13-rank_1"),
])
def test_kernel_rejects_invalid_input(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, opset, inputs, **attrs)


def test_examples_match_kernel_and_formula() -> None:
    assert_examples_match_kernel_and_formula("ai.onnx", OP)


SHAPES = [shape_case(OP, v, [s], {"size": 3}) for v in onnx_versions(OP) for s in ([1, 4, 5, 5], [2, 3, 4])]
REJECTED = [(shape_case(OP, 13, [[1, 3, 2, 2]], {"size": 0}), "attr_range")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
