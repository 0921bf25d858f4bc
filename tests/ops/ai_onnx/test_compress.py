"""Compress: the kernel against onnx.reference, the data-dependent shape formula against onnx (constant
conditions), rejected nodes."""

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

OP = "Compress"
DATA = Seeded(1234).f32(3, 4, 2)


def cond(*flags: int) -> np.ndarray:
    return np.array(flags, bool)


CASES = [
    OracleCase(OP, dict(axis=1), [DATA, cond(1, 0, 1, 1)], all_since(OP), id="axis1"),
    OracleCase(OP, dict(axis=0), [DATA, cond(0, 1)], all_since(OP), id="short_condition"),
    OracleCase(OP, dict(axis=2), [DATA, cond(0, 1, 0, 0)], all_since(OP), id="long_condition_false_tail"),
    OracleCase(OP, {}, [DATA, cond(*[i % 3 == 0 for i in range(20)])], all_since(OP), id="flattened"),
    OracleCase(OP, dict(axis=-2), [DATA, cond(0, 0, 0, 0)], all_since(OP, 11), id="negative_axis_none_kept"),
    OracleCase(OP, dict(axis=0), [np.arange(3, dtype=np.uint16), cond(1, 1, 1)], all_since(OP), id="all_kept"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


OPSETS = (9, 11, 28)
COMPRESSED = [(cond(1, 0, 1, 1), {"axis": 1}, [3, 3, 2]), (cond(0, 1), {"axis": 0}, [1, 4, 2]),
              (cond(1, 0, 0, 1, 1), {}, [3])]
# onnx infers no shape at opset 9: there the formula must give the stated one
SHAPES = [shape_case(OP, 9, [[3, 4, 2], c], attrs, not_inferred_by_onnx={0: want}) for c, attrs, want in COMPRESSED]
SHAPES += [shape_case(OP, opset, [[3, 4, 2], c], attrs) for opset in OPSETS[1:] for c, attrs, _ in COMPRESSED]
SHAPES += [shape_case(OP, opset, [[3, 4, 2], cond(1, 1, 0)], {"axis": -1}) for opset in (11, 28)]

REJECTED = [(shape_case(OP, opset, [data, c], attrs), check) for opset in OPSETS for data, c, attrs, check in (
    ([], cond(1), {}, "compress_c1"),
    ([3, 4], cond(1), {"axis": 2}, "compress_c2"),
    ([3, 4], cond(0, 1, 1, 1), {"axis": 0}, "compress_c3"),
    ([3, 4], cond(*[False] * 12, True), {}, "compress_c3"),
)]
REJECTED.append((shape_case(OP, 9, [[3, 4], cond(1)], {"axis": -1}), "compress_c2"))  # no negative axis at 9


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("since", "condition", "attrs"), [(9, cond(1), {"axis": -1}), (11, cond(0, 0, 0, 1),
                                                                                        {"axis": 0})])
def test_kernel_rejects_what_the_constraints_reject(since: int, condition: np.ndarray,
                                                    attrs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        kernel("ai.onnx", OP, since)(np.zeros((3, 4), np.float32), condition, **attrs)


def test_symbolic_dims() -> None:
    """A symbolic dim off the axis stays; the axis's size is the count of true entries; flattening a symbolic
    input leaves the size open (a 1-D output of unknown length)."""
    values = {"condition": [True, False, True]}
    assert symbolic_shape(OP, 11, [[Sym("N"), 4], [3]], {"axis": 1}, values) == ["N", "2"]
    assert symbolic_shape(OP, 11, [[Sym("N"), 4], [3]], {}, values) == ["?kept"]
