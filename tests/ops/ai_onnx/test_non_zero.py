"""NonZero: the kernel against onnx.reference, the data-dependent shape formula against onnx and the kernel,
the scalar reading."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    formula_shapes,
    inferred,
    oracle_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "NonZero"
data = Seeded(4501)
MIXED = np.array([[1, 0, 3], [0, 0, -2]], np.float32)

CASES = [
    OracleCase(OP, {}, [MIXED], all_since(OP), id="2d"),
    OracleCase(OP, {}, [data.ints(-1, 2, (2, 3, 4), np.int32)], all_since(OP), id="3d_int32"),
    OracleCase(OP, {}, [data.ints(0, 2, (7,), np.bool_)], all_since(OP), id="bool"),
    OracleCase(OP, {}, [np.zeros((3, 2), np.uint8)], all_since(OP), id="all_zero"),
    OracleCase(OP, {}, [np.zeros((0, 4), np.float32)], all_since(OP), id="empty"),
    OracleCase(OP, {}, [np.full((), 5, np.int64)], all_since(OP), id="scalar_nonzero"),
    OracleCase(OP, {}, [np.zeros((), np.float32)], all_since(OP), id="scalar_zero"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize("x", [MIXED, np.zeros((2, 2)), np.full((), 3.0), np.array([True, False, True])],
                         ids=["mixed", "zeros", "scalar", "bool"])
def test_formula_sizes_the_kernel_output(x: np.ndarray) -> None:
    (y,) = run("ai.onnx", OP, 13, [x])
    assert formula_shapes(version("ai.onnx", OP, 13), [x], {}, {"X": x.reshape(-1).tolist()}) == [list(y.shape)]


def test_without_values_the_count_is_an_unknown_dim() -> None:
    (shape,) = inferred(version("ai.onnx", OP, 13), [[Sym("N"), 3]]).outputs
    assert shape is not None and [str(d) for d in shape] == ["2", "?nonzero"]


def test_a_scalar_follows_onnx_text_and_onnxruntime_is_the_other_reading() -> None:
    found = inferred(version("ai.onnx", OP, 9), [[]], {}, {"X": [2.0]}).readings
    assert [(r.reading.id, r.outputs) for r in found] == [("nonzero_r1", ([1, 1],))]
    assert inferred(version("ai.onnx", OP, 9), [[2]], {}, {"X": [2.0, 0.0]}).readings == []


SHAPES = [shape_case(OP, opset, [x]) for opset in all_since(OP)
          for x in (MIXED, np.zeros((2, 3), np.int64), np.ones((4,), np.int32))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)
