"""Unique: the kernel's four outputs against onnx.reference and onnxruntime (sorted and first-occurrence order,
with and without axis), the shape formulas against onnx and against the kernel, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    formula_shapes,
    inferred,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

OP = "Unique"
data = Seeded(4401)
FLAT = np.array([2, 1, 1, 3, 4, 3], np.float32)  # onnx's example 1
ROWS = np.array([[2, 3, 4], [1, 0, 0], [2, 3, 4], [1, 0, 0], [0, 5, 5]], np.int64)
COLUMNS = np.array([[2, 3, 2, 1], [1, 0, 1, 1]], np.int64)
CUBE = data.ints(0, 2, (2, 4, 2), np.int8)
ALL = all_since(OP)

CASES = [
    OracleCase(OP, {}, [FLAT], ALL, n_out=4, id="sorted_flat"),
    OracleCase(OP, dict(sorted=0), [FLAT], ALL, n_out=4, id="first_occurrence_flat"),
    OracleCase(OP, {}, [data.ints(-2, 3, (3, 4), np.int32)], ALL, n_out=4, id="sorted_2d"),
    OracleCase(OP, dict(axis=0), [ROWS], ALL, n_out=4, id="sorted_rows"),
    OracleCase(OP, dict(axis=0, sorted=0), [ROWS], ALL, n_out=4, id="first_occurrence_rows"),
    OracleCase(OP, dict(axis=-1), [CUBE], ALL, n_out=4, id="sorted_negative_axis"),
    OracleCase(OP, {}, [np.full((), 7, np.int64)], ALL, n_out=4, id="scalar"),
    OracleCase(OP, {}, [np.zeros((0, 3), np.float32)], ALL, n_out=4, id="empty"),
    OracleCase(OP, {}, [data.f32(3, 4).round().astype(np.float16)], ALL, n_out=4, id="float16"),
    # onnx.reference gets sorted=0 wrong with an axis or more than one dim (it takes slices along axis 0 of X):
    # onnxruntime is the oracle there
    OracleCase(OP, dict(sorted=0), [data.ints(-2, 3, (3, 4), np.int64)], ALL, n_out=4, oracle="ort",
               id="first_occurrence_2d_ort"),
    OracleCase(OP, dict(axis=1, sorted=0), [COLUMNS], ALL, n_out=4, oracle="ort", id="first_occurrence_columns_ort"),
    OracleCase(OP, dict(axis=1, sorted=0), [CUBE], ALL, n_out=4, oracle="ort", id="first_occurrence_cube_ort"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


@pytest.mark.parametrize("attrs", [{}, {"sorted": 0}, {"axis": 0}, {"axis": 1, "sorted": 0}, {"axis": -1}],
                         ids=str)
@pytest.mark.parametrize("x", [ROWS, COLUMNS, CUBE.astype(np.int64)], ids=["rows", "columns", "cube"])
def test_formula_sizes_the_kernel_outputs(x: np.ndarray, attrs: dict[str, int]) -> None:
    """With X's values known the formulas give every output's shape exactly (onnx's inference leaves the count
    unknown)."""
    v = version("ai.onnx", OP, 11)
    got = [list(y.shape) for y in run("ai.onnx", OP, 11, [x], **attrs)]
    assert formula_shapes(v, [x], attrs, {"X": x.reshape(-1).tolist()}) == got


def test_without_values_the_count_is_one_unknown_dim() -> None:
    outputs = inferred(version("ai.onnx", OP, 11), [[3, 4]], {"axis": 1}).outputs
    assert [[str(d) for d in s] for s in outputs if s is not None] == [["3", "?unique"], ["?unique"], ["4"],
                                                                       ["?unique"]]
    flat = inferred(version("ai.onnx", OP, 11), [[3, 4]]).outputs
    assert [[str(d) for d in s] for s in flat if s is not None] == [["?unique"], ["?unique"], ["12"], ["?unique"]]


SHAPES = [shape_case(OP, opset, [x], attrs, n_out=4) for opset in ALL for x, attrs in (
    (np.array([[1, 3], [2, 3]], np.int64), {}),
    (ROWS, {"axis": 0}),
    (ROWS, {"axis": -1, "sorted": 0}),
)]

REJECTED = [(shape_case(OP, 11, [[2, 3]], {"axis": axis}), "unique_c1") for axis in (2, -3)]
REJECTED += [(shape_case(OP, 11, [[2, 3]], {"sorted": 2}), "attr_allowed")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize(("shape", "axis", "count"), [((3, 0), 0, 1), ((0, 3), 0, 0), ((2, 0, 2), -1, 1)], ids=str)
def test_the_slices_of_an_empty_tensor_are_one_slice(shape: tuple[int, ...], axis: int, count: int) -> None:
    x = np.zeros(shape, np.int64)
    y, indices, inverse, counts = run("ai.onnx", OP, 11, [x], axis=axis)
    assert y.shape[axis] == count and indices.shape == counts.shape == (count,)
    assert inverse.shape == (shape[axis],) and int(counts.sum()) == shape[axis]
    v = version("ai.onnx", OP, 11)
    assert formula_shapes(v, [x], {"axis": axis}, {"X": []}) == [list(y.shape), [count], [shape[axis]], [count]]


@pytest.mark.parametrize(("shape", "axis"), [((3, 4, 2), None), ((3, 4, 2), 0), ((3, 4, 2), 1), ((3, 4, 2), -1),
                                             ((3, 4, 2), -3), ((7,), 0), ((7,), None), ((2, 0, 3), 0), ((2, 0, 3), 1)])
@pytest.mark.parametrize("sorted_", [0, 1])
def test_strings_are_grouped_as_their_ranks_are(shape: tuple[int, ...], axis: int | None, sorted_: int) -> None:
    # numpy's unique takes no axis for strings: the kernel must group and order string slices exactly as
    # it does the same slices written as the strings' ranks (ranks keep the order of the strings)
    words = np.array(["", "VvFj", "l", "la"], object)
    ranks = data.ints(0, 4, shape, np.int64)
    attrs = {"sorted": sorted_} if axis is None else {"axis": axis, "sorted": sorted_}
    as_strings = run("ai.onnx", OP, 11, [words[ranks]], **attrs)
    as_ranks = run("ai.onnx", OP, 11, [ranks], **attrs)
    assert as_strings[0].dtype == object
    np.testing.assert_array_equal(as_strings[0], words[as_ranks[0]])
    for got, want in zip(as_strings[1:], as_ranks[1:], strict=True):
        np.testing.assert_array_equal(got, want)
