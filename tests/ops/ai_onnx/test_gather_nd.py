"""GatherND: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, symbolic dims."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    kernel,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    symbolic_shape,
)

OP = "GatherND"
SEEDED = Seeded(1234)
DATA = SEEDED.f32(2, 3, 4)


def columns(lead: tuple[int, ...], *sizes: int) -> np.ndarray:
    """Index tuples of shape lead + [len(sizes)], column j in [-sizes[j], sizes[j] - 1]."""
    return np.stack([SEEDED.ints(-s, s, lead, np.int64) for s in sizes], axis=-1)


CASES = [
    OracleCase(OP, {}, [DATA, columns((5,), 2, 3, 4)], all_since(OP), id="elements"),
    OracleCase(OP, {}, [DATA, columns((2, 2), 2)], all_since(OP), id="slices"),
    OracleCase(OP, {}, [DATA, columns((), 2, 3)], all_since(OP), id="one_tuple"),
    OracleCase(OP, dict(batch_dims=1), [DATA, np.stack([columns((3,), 3, 4) for _ in range(2)])], all_since(OP, 12),
               id="batch1"),
    OracleCase(OP, dict(batch_dims=2), [DATA, np.stack([columns((3, 1), 4) for _ in range(2)])], all_since(OP, 12),
               id="batch2"),
    OracleCase(OP, dict(batch_dims=1), [np.arange(24, dtype=np.int32).reshape(2, 3, 4), columns((2, 1), 3)],
               all_since(OP, 12), id="batch1_slices_int32"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, opset, [[2, 3, 4], idx]) for opset in (11, 12, 13) for idx in (
    np.zeros((5, 3), np.int64), np.zeros((2, 2, 1), np.int64), np.zeros((2,), np.int64))]
SHAPES += [shape_case(OP, opset, [[2, 3, 4], idx], {"batch_dims": b}) for opset in (12, 13) for idx, b in (
    (np.zeros((2, 3, 2), np.int64), 1), (np.zeros((2, 3, 5, 1), np.int64), 2), (np.zeros((2, 1), np.int64), 1))]

REJECTED = [(shape_case(OP, opset, [data, idx]), check) for opset in (11, 12, 13) for data, idx, check in (
    ([], np.zeros((1, 0), np.int64), "gathernd_c1"),
    ([2, 3], np.array(0, np.int64), "gathernd_c2"),
    ([2, 3], np.zeros((1, 3), np.int64), "gathernd_c3"),
    ([2, 3], np.zeros((1, 0), np.int64), "gathernd_c3"),  # the text asks for k >= 1 (onnx's inference allows 0)
    ([2, 3], i64(1, 3), "gathernd_c4"),
    ([2, 3], i64(-3, 0), "gathernd_c4"),
)]
REJECTED += [(shape_case(OP, opset, [data, idx], {"batch_dims": b}), check) for opset in (12, 13)
             for data, idx, b, check in (
    ([2, 3], np.zeros((2, 1), np.int64), 2, "gathernd_c5"),
    ([2, 3], np.zeros((3, 1), np.int64), 1, "gathernd_c6"),
    ([2, 3], np.zeros((2, 2), np.int64), 1, "gathernd_c3"),
    ([2, 3], np.array([[0], [3]], np.int64), 1, "gathernd_c4"),
)]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("idx", "attrs"), [(i64(0, 3), {}), (np.zeros((3, 1), np.int64), {"batch_dims": 1}),
                                            (np.zeros((2, 3), np.int64), {"batch_dims": 1})])
def test_kernel_rejects_invalid_indices(idx: np.ndarray, attrs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        kernel("ai.onnx", OP, 13)(np.zeros((2, 3), np.float32), idx, **attrs)


def test_symbolic_dims() -> None:
    assert symbolic_shape(OP, 13, [[Sym("B"), 3, 4], [Sym("B"), Sym("K"), 1]], {"batch_dims": 1}) == ["B", "K", "4"]
