"""Transpose: the kernel against onnx.reference, shape formulas against onnx, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    onnx_versions,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "Transpose"
f32 = Seeded(1234).f32
X = f32(2, 3, 4, 5)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="reverse"),
    OracleCase(OP, dict(perm=[0, 2, 3, 1]), [X], all_since(OP), id="perm"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


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


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 25, [[Sym("N"), 3, 4]]) == ["4", "3", "N"]
