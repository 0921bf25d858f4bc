"""DepthToSpace: the kernel against onnx.reference (DCR and CRD), the shape formula against onnx, rejected
nodes, and the inverse of SpaceToDepth."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "DepthToSpace"
X = Seeded(1234).f32(2, 18, 2, 3)

CASES = [
    OracleCase(OP, dict(blocksize=3), [X], all_since(OP), id="dcr"),
    OracleCase(OP, dict(blocksize=3, mode="CRD"), [X], all_since(OP, 11), id="crd"),
    OracleCase(OP, dict(blocksize=1), [X], all_since(OP), id="block1"),
    OracleCase(OP, dict(blocksize=2, mode="CRD"), [np.arange(32, dtype=np.uint8).reshape(1, 8, 2, 2)],
               all_since(OP, 11), id="crd_uint8"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (1, 11, 13, 28)
SHAPES = [shape_case(OP, opset, [shape], {"blocksize": b}) for opset in OPSETS
          for shape, b in (([1, 8, 2, 3], 2), ([2, 9, 1, 1], 3), ([1, 3, 2, 2], 1))]
SHAPES += [shape_case(OP, opset, [[1, 8, 2, 3]], {"blocksize": 2, "mode": "CRD"}) for opset in OPSETS[1:]]
REJECTED = [(shape_case(OP, opset, [[1, 6, 2, 2]], {"blocksize": 2}), "depthtospace_c1") for opset in OPSETS]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_inverse_of_space_to_depth(mode: str) -> None:
    x = Seeded(7).f32(2, 3, 4, 6)
    (deep,) = kernel("ai.onnx", "SpaceToDepth", 28)(x, blocksize=2, mode=mode)
    (back,) = kernel("ai.onnx", OP, 13)(deep, blocksize=2, mode=mode)
    np.testing.assert_array_equal(back, x)


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 13, [[Sym("N"), 8, Sym("H"), 3]], {"blocksize": 2}) == ["N", "2", "2*H", "6"]
