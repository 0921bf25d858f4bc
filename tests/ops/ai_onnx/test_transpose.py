"""Transpose: the kernel against onnx.reference, shape formulas against onnx, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    ShapeCase,
    all_since,
    assert_matches_oracle,
    assert_ranges_exercised,
    assert_shapes_match_onnx,
    onnx_versions,
    oracle_params,
    rejection_params,
    reported_checks,
    run,
    shape_case,
    shape_params,
    symbolic_shape,
)

OP = "Transpose"
f32 = Seeded(1234).f32
X = f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="reverse"),
    OracleCase(OP, dict(perm=[0, 2, 3, 1]), [X], all_since(OP), id="perm"),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_oracle(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_ranges_exercised(OP, {v for c in CASES for v in c.since})


@pytest.mark.parametrize(("attrs", "inputs", "message"), [
    pytest.param(dict(perm=[0, 0]), [f32(2, 3)], "perm", id="repeated_perm"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], inputs: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, onnx_versions(OP)[-1], inputs, **attrs)


OPSETS = (1, 13, 21, 25)
SHAPES = [shape_case(OP, opset, [shape], attrs) for opset in OPSETS
          for shape, attrs in (([2, 3, 4], {}), ([2, 3, 4], {"perm": [1, 2, 0]}), ([5], {"perm": [0]}))]
REJECTED = [(shape_case(OP, opset, [[2, 3, 4]], {"perm": [0, 0, 1]}), "transpose_c1") for opset in OPSETS]


@pytest.mark.parametrize("case", shape_params(SHAPES))
def test_shape_formula_matches_onnx(case: ShapeCase) -> None:
    assert_shapes_match_onnx(case)


@pytest.mark.parametrize(("case", "check"), rejection_params(REJECTED))
def test_invalid_node_reports_the_check(case: ShapeCase, check: str) -> None:
    assert check in reported_checks(case)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 25, [[Sym("N"), 3, 4]]) == ["4", "3", "N"]
