"""ConvTranspose: the kernel against onnx.reference, the shape formula against onnx, rejected nodes, defaults."""

from __future__ import annotations

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
    version,
)

OP = "ConvTranspose"
f32 = Seeded(1234).f32

CASES = [
    OracleCase(OP, {}, [f32(1, 3, 4, 5), f32(3, 2, 3, 3), f32(2)], all_since(OP), id="plain"),
    OracleCase(OP, dict(strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
               [f32(1, 4, 4, 4), f32(4, 2, 3, 3), f32(2)], all_since(OP), id="s2_outpad"),
    OracleCase(OP, dict(strides=[2, 3], dilations=[2, 1], group=2), [f32(2, 4, 3, 3), f32(4, 3, 2, 2)], all_since(OP),
               oracle="ort", id="group_dil"),
    OracleCase(OP, dict(strides=[2, 2], output_shape=[9, 10], auto_pad="SAME_UPPER"),
               [f32(1, 2, 4, 5), f32(2, 3, 3, 3)], all_since(OP), id="output_shape"),
    OracleCase(OP, dict(strides=[2, 2], auto_pad="SAME_LOWER"), [f32(1, 2, 3, 3), f32(2, 3, 3, 3)], all_since(OP),
               id="same_lower"),
    OracleCase(OP, dict(strides=[3]), [f32(1, 2, 4), f32(2, 3, 2)], all_since(OP), id="1d"),
    OracleCase(OP, dict(strides=[1, 2, 1], pads=[0, 1, 0, 0, 1, 1]), [f32(1, 2, 3, 3, 2), f32(2, 2, 2, 3, 2)],
               all_since(OP), id="3d"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2]}),
    shape_case(OP, 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "output_shape": [8, 7]}),
    shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3]],
               {"strides": [2, 2], "group": 2, "output_padding": [1, 1], "pads": [1, 0, 1, 0]}),
    shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "auto_pad": "SAME_UPPER"}),
    shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3], [2]],
               {"strides": [2, 2], "auto_pad": "SAME_LOWER", "output_padding": [1, 1]}),
    shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "dilations": [2, 1], "auto_pad": "VALID"}),
    shape_case(OP, 22, [[1, 4, 3, 3], [4, 2, 3, 3]], {"strides": [2, 2], "kernel_shape": [3, 3]}),
    shape_case(OP, 22, [[2, 1, 5], [1, 3, 2]], {"strides": [3], "output_shape": [16]}),
]

REJECTED = [
    (shape_case(OP, 11, [[1, 3, 3, 3], [3, 2, 3, 3]], {"group": 2}), "convtranspose_c2"),
    (shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3], [3]]), "convtranspose_c3"),
    (shape_case(OP, 11, [[1, 4, 3, 3], [4, 2, 3, 3]], {"output_padding": [1, 1]}), "convtranspose_c6"),
    (shape_case(OP, 1, [[1, 4, 3, 3], [4, 2, 3, 3]], {"auto_pad": "SAME_UPPER", "pads": [1, 1, 1, 1]}),
     "convtranspose_c5"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_default_expressions() -> None:
    result = inferred(version("ai.onnx", OP, 11), [[1, 4, 3, 5], [4, 2, 2, 3]])
    assert result.attributes["kernel_shape"] == [2, 3]
    assert result.attributes["pads"] == [0, 0, 0, 0]
    assert result.attributes["strides"] == [1, 1]
    assert result.attributes["output_padding"] == [0, 0]
