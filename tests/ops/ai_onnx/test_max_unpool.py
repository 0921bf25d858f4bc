"""MaxUnpool: the kernel against onnx.reference and onnxruntime, MaxPool's Indices round trip, the shape formula
against onnx's shape inference, rejected nodes."""

from __future__ import annotations

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "MaxUnpool"
seeded = Seeded(4323)
f32 = seeded.f32


def pooled(x: np.ndarray, **attrs: object) -> tuple[np.ndarray, np.ndarray]:
    """MaxPool's values and Indices (our MaxPool kernel, itself checked against onnx.reference)."""
    y, indices = run("ai.onnx", "MaxPool", 12, [x], **attrs)
    return y, indices


X1 = f32(2, 3, 6, 4)
Y1, I1 = pooled(X1, kernel_shape=[2, 2], strides=[2, 2])
XODD = np.abs(f32(2, 3, 7, 5))  # non-negative: pooling the unpooled zeros gives the maxima back
YODD, IODD = pooled(XODD, kernel_shape=[2, 2], strides=[2, 2])
X2 = f32(1, 2, 7)
Y2, I2 = pooled(X2, kernel_shape=[3], strides=[2], pads=[1, 1])
X3 = f32(1, 1, 4, 5, 4)
Y3, I3 = pooled(X3, kernel_shape=[2, 3, 2], strides=[2, 1, 2])
# indices anywhere in the whole output (flat over batch and channel, not per plane)
CROSS = np.array([[[[9, 14]], [[0, 7]]]], np.int64)
XC = f32(1, 2, 1, 2)

CASES = [
    OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [Y1, I1], all_since(OP), id="2d"),
    OracleCase(OP, dict(kernel_shape=[3], strides=[2], pads=[1, 1]), [Y2, I2], all_since(OP), id="1d_pads"),
    OracleCase(OP, dict(kernel_shape=[2, 3, 2], strides=[2, 1, 2]), [Y3, I3], all_since(OP), id="3d"),
    OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [XC, CROSS], all_since(OP), id="cross_plane"),
    OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [Y1.astype(np.float16), I1], all_since(OP),
               id="fp16"),
    # output_shape larger than the inferred shape: the indices address output_shape's positions (onnxruntime;
    # onnx.reference places them in the inferred shape first, see the readings)
    OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [YODD, IODD, i64(*XODD.shape)], all_since(OP),
               oracle="ort", id="output_shape"),
    OracleCase(OP, dict(kernel_shape=[3], strides=[2], pads=[1, 1]), [Y2, I2, i64(1, 2, 8)], all_since(OP),
               oracle="ort", id="output_shape_pads_ignored"),
    # output_shape equal to the inferred shape: both runtimes agree
    OracleCase(OP, dict(kernel_shape=[2, 2], strides=[2, 2]), [Y1, I1, i64(2, 3, 6, 4)], all_since(OP),
               id="output_shape_inferred"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_unpooling_restores_the_maxima() -> None:
    """With output_shape = the MaxPool input's shape, every maximum is back in place and MaxPool of the output
    gives the pooled values again."""
    (z,) = run("ai.onnx", OP, 22, [YODD, IODD, i64(*XODD.shape)], kernel_shape=[2, 2], strides=[2, 2])
    assert z.shape == XODD.shape
    kept = z != 0
    np.testing.assert_array_equal(z[kept], XODD[kept])
    assert int(kept.sum()) == YODD.size
    again, _ = pooled(z, kernel_shape=[2, 2], strides=[2, 2])
    np.testing.assert_array_equal(again, YODD)


SHAPES = [
    shape_case(OP, 9, [[1, 1, 2, 2], [1, 1, 2, 2]], {"kernel_shape": [2, 2], "strides": [2, 2]}),
    shape_case(OP, 11, [[2, 3, 3], [2, 3, 3]], {"kernel_shape": [3], "strides": [2], "pads": [1, 2]}),
    shape_case(OP, 22, [[1, 2, 2, 3, 2], [1, 2, 2, 3, 2]], {"kernel_shape": [2, 3, 2], "strides": [2, 1, 2]}),
    # onnx infers no shape when output_shape is given, even as an initializer: the formula takes its values
    shape_case(OP, 11, [[1, 1, 2, 2], [1, 1, 2, 2], i64(1, 1, 5, 5)], {"kernel_shape": [2, 2], "strides": [2, 2]},
               not_inferred_by_onnx={0: [1, 1, 5, 5]}),
]

IDX = np.zeros((1, 1, 2, 2), np.int64)
REJECTED = [
    (shape_case(OP, 11, [[1, 2], [1, 2]], {"kernel_shape": []}), "maxunpool_c1"),
    # (2 - 1) * 1 - 1 - 1 + 1 = 0 (strides default to 1: [1, 1, 0, 0] would leave 1 and be valid)
    (shape_case(OP, 11, [[1, 1, 2, 2], [1, 1, 2, 2]], {"kernel_shape": [1, 1], "pads": [1, 1, 1, 1]}),
     "maxunpool_c2"),
    (shape_case(OP, 11, [[1, 1, 2, 2], [1, 1, 2, 2], i64(1, 4, 4)], {"kernel_shape": [2, 2], "strides": [2, 2]}),
     "maxunpool_c3"),
    (shape_case(OP, 11, [[1, 1, 2, 2], [1, 1, 2, 2], i64(1, 2, 4, 4)], {"kernel_shape": [2, 2], "strides": [2, 2]}),
     "maxunpool_c4"),
    (shape_case(OP, 11, [[1, 1, 2, 2], IDX + 16], {"kernel_shape": [2, 2], "strides": [2, 2]}), "maxunpool_c5"),
    (shape_case(OP, 11, [[1, 1, 2, 2], IDX - 1], {"kernel_shape": [2, 2], "strides": [2, 2]}), "maxunpool_c5"),
    (shape_case(OP, 11, [[1, 1, 2, 2], [1, 1, 2, 3]], {"kernel_shape": [2, 2]}), "binding"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
