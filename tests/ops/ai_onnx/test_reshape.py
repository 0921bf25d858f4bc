"""Reshape: the kernel against onnx.reference/onnxruntime, shape formulas against onnx, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from opset.formula.symbolic import holds_unknown
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    i64,
    inferred,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

OP = "Reshape"
f32 = Seeded(1234).f32
X = f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, dict(shape=[0, -1]), [X], all_since(OP, 1, 4), oracle="ort", id="attr"),
    OracleCase(OP, {}, [X, i64(0, -1, 5)], all_since(OP, 5), id="zero_copy"),
    OracleCase(OP, dict(allowzero=1), [np.zeros((0, 3), np.float32), i64(3, 0)], all_since(OP, 14), id="allowzero"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param({}, [f32(2, 3), i64(4, -1)], "Reshape", id="size_mismatch"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


OPSETS = (1, 5, 13, 14, 25)


def reshaped(opset: int, data: list[int], shape: list[int], want: list[int] | None = None, **attrs: Any) -> ShapeCase:
    """A Reshape node: the target shape is an attribute at opset 1 (where onnx infers nothing: `want`), else a
    constant input."""
    if opset == 1:
        return shape_case(OP, 1, [data], {"shape": shape, **attrs}, not_inferred_by_onnx={0: want} if want else {})
    return shape_case(OP, opset, [data, i64(*shape)], attrs)


SHAPES = [reshaped(opset, data, shape, want) for opset in OPSETS for data, shape, want in (
    ([2, 3, 4], [6, 4], [6, 4]), ([2, 3, 4], [-1], [24]), ([2, 3, 4], [0, -1], [2, 12]),
    ([2, 3, 4], [4, 0, 2], [4, 3, 2]),
    # onnx.helper cannot build an empty ints attribute
    *([([1], [], [])] if opset > 1 else []))]
SHAPES += [c for opset in OPSETS if opset >= 14 for c in (reshaped(opset, [0, 3], [3, 0], allowzero=1),
                                                          reshaped(opset, [3, 0], [0, 0]))]

REJECTED = [(reshaped(opset, data, shape), check) for opset in OPSETS for data, shape, check in (
    ([2, 3], [-1, -1], "reshape_c1"), ([2, 3], [4, 2], "reshape_c4"), ([2, 3], [4, -1], "reshape_c4"),
    ([6], [0, 0], "reshape_c3"))]
REJECTED += [(c, check) for opset in OPSETS if opset >= 14 for c, check in (
    (reshaped(opset, [2, 0], [0, 3, 0]), "reshape_c3"), (reshaped(opset, [0, 3], [0, -1], allowzero=1), "reshape_c5"))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_unknown_shape_values_give_the_rank_of_the_shape_input() -> None:
    """As onnx infers it: the output has as many dims as the shape input has values, each one unknown (was: no
    shape at all, and none for anything computed from it)."""
    result = inferred(version("ai.onnx", OP, 14), [[2, 3], [2]])
    assert result.problems == []
    (shape,) = result.outputs
    assert shape is not None and len(shape) == 2 and all(holds_unknown(d) for d in shape) and shape[0] != shape[1]


def test_symbolic_batch_dim() -> None:
    n = Sym("N")
    assert symbolic_shape(OP, 25, [[n, 3, 4], [2]], values={"shape": [0, -1]}) == ["N", "12"]
    assert symbolic_shape(OP, 25, [[n, 3, 4], [2]], values={"shape": [-1, 4]}) == ["3*N", "4"]
