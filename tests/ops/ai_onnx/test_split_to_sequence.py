"""SplitToSequence: the kernel against onnx.reference (no split with and without keepdims, a scalar split that
leaves a shorter last part, 1-D lengths with an empty part), the shape formula against onnx's shape inference,
every constraint, and onnxruntime following reading splittosequence_r1 (keepdims=0 with a scalar split)."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run_onnxruntime,
    shape_case,
    shape_tests,
    version,
)

OP = "SplitToSequence"
data = Seeded(1234)
X = data.f32(5, 3)
V = all_since(OP)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


CASES = [
    OracleCase(OP, {}, [X], V, id="ones"),
    OracleCase(OP, {"axis": -1, "keepdims": 0}, [X], V, id="ones_squeezed"),
    OracleCase(OP, {}, [X, np.array(2, np.int64)], V, id="scalar_uneven"),
    OracleCase(OP, {"axis": 1}, [X, np.array(7, np.int32)], V, id="scalar_past_the_axis"),
    OracleCase(OP, {"keepdims": 0}, [X, np.array(2, np.int64)], V, id="scalar_keepdims_ignored"),
    OracleCase(OP, {"axis": 0}, [X, i64(1, 0, 4)], V, id="lengths_with_empty_part"),
    OracleCase(OP, {"axis": -2, "keepdims": 0}, [X, i64(5)], V, id="lengths_keepdims_ignored"),
    OracleCase(OP, {}, [data.ints(0, 9, (4, 2), np.uint8), np.array(3, np.int64)], V, id="uint8"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, v, inputs, attrs) for v in V for inputs, attrs in (
    ([[5, 3]], {}), ([[5, 3]], {"keepdims": 0}), ([[5, 3]], {"axis": 1, "keepdims": 0}),
    ([[5, 3], np.array(2, np.int64)], {}), ([[5, 3], i64(1, 0, 4)], {}), ([[5, 3], i64(2, 1)], {"axis": -1}))]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [[]]), "splittosequence_c1"),
    (shape_case(OP, 11, [[5, 3]], {"axis": 2}), "splittosequence_c2"),
    (shape_case(OP, 11, [[5, 3]], {"axis": -3}), "splittosequence_c2"),
    (shape_case(OP, 11, [[5, 3], np.ones((1, 1), np.int64)]), "splittosequence_c3"),
    (shape_case(OP, 11, [[5, 3], np.array(0, np.int64)]), "splittosequence_c4"),
    (shape_case(OP, 11, [[5, 3], i64(2, 2)]), "splittosequence_c5"),
    (shape_case(OP, 11, [[5, 3], i64(6, -1)]), "splittosequence_c5"),
    (shape_case(OP, 11, [[5, 3]], {"keepdims": 2}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_onnxruntime_follows_reading_r1_for_a_scalar_split_of_one() -> None:
    """keepdims=0 with a scalar split of 1: onnxruntime drops the axis, as the reading says; the registry (onnx's
    text, onnx.reference, onnx's shape inference) keeps it."""
    v = version("ai.onnx", OP, 11)
    inputs, attrs = [X, np.array(1, np.int64)], {"keepdims": 0}
    model, feeds = one_node_model(OP, 11, inputs, attrs, 1)
    (theirs,) = run_onnxruntime(model, feeds)
    result = inferred(v, inputs, attrs, {"split": [1]})
    (found,) = result.readings
    assert found.reading.id == "splittosequence_r1"
    assert found.outputs[0] == [list(x.shape) for x in theirs] == [[3]] * 5
    assert result.outputs[0] == [[1, 3]] * 5


def test_no_split_over_an_empty_axis_gives_no_parts() -> None:
    from tests.helpers import run

    (parts,) = run("ai.onnx", OP, 11, [np.zeros((0, 2), np.float32)])
    (chunks,) = run("ai.onnx", OP, 11, [np.zeros((0, 2), np.float32), np.array(2, np.int64)])
    assert parts == [] and chunks == []
    assert inferred(version("ai.onnx", OP, 11), [[0, 2]]).outputs == [[]]
