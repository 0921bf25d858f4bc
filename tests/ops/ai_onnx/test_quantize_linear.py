"""QuantizeLinear: the kernel against onnx.reference (rounding half to even, saturation, per tensor / axis / block,
output_dtype, precision, integer x) and onnxruntime; shapes against onnx; rejected nodes; the validator types y
from output_dtype."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "QuantizeLinear"
RAND = Seeded(1234)
ALL = all_since(OP)


def big(*shape: int) -> np.ndarray:
    """float32 data spread over a range that saturates 8-bit outputs, with exact halves to round."""
    return (RAND.ints(-1200, 1200, shape, np.int32) / 2).astype(np.float32)


def f(*values: float, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.asarray(values, np.float32).reshape(shape)


X = big(2, 3, 4)
HALVES = f(0.5, 1.5, 2.5, -0.5, -1.5, -2.5, shape=(6,))

CASES = [
    OracleCase(OP, {}, [HALVES, f(1), np.int8(0)], ALL, id="half_to_even"),
    OracleCase(OP, {}, [X, f(2.5), np.uint8(128)], ALL, id="uint8_saturate"),
    OracleCase(OP, {}, [X, f(0.5)], ALL, id="default_uint8"),
    OracleCase(OP, {}, [X, f(3, shape=(1,)), np.array([-3], np.int8)], ALL, id="one_element"),
    OracleCase(OP, {}, [RAND.ints(-999, 999, (3, 4), np.int32), f(4), np.int8(1)], ALL, id="int32_x"),
    OracleCase(OP, dict(axis=1), [X, f(1, 2, 4, shape=(3,)), np.array([0, 5, -5], np.int8)], all_since(OP, 13),
               id="per_axis"),
    OracleCase(OP, dict(axis=-1), [X, f(1, 2, 4, 8, shape=(4,))], all_since(OP, 13), id="per_axis_negative"),
    OracleCase(OP, {}, [X.astype(np.float16), f(2.5).astype(np.float16), np.uint8(3)], all_since(OP, 19),
               id="half"),
    OracleCase(OP, dict(axis=2, block_size=3), [X, RAND.ints(1, 5, (2, 3, 2), np.int32).astype(np.float32),
                                                RAND.ints(-9, 9, (2, 3, 2), np.int16)], all_since(OP, 21),
               id="blocked_int16"),
    OracleCase(OP, dict(axis=0, block_size=4), [X, RAND.ints(1, 5, (1, 3, 4), np.int32).astype(np.float32)],
               all_since(OP, 21), id="blocked_one_block"),
    OracleCase(OP, dict(output_dtype=TensorProto.INT16), [X * 100, f(0.5)], all_since(OP, 21),
               id="output_dtype_int16"),
    OracleCase(OP, dict(output_dtype=TensorProto.UINT16), [X, f(0.5), np.uint16(300)], all_since(OP, 21),
               id="output_dtype_with_zero_point"),
    OracleCase(OP, dict(precision=TensorProto.FLOAT16), [X * 40, f(3)], all_since(OP, 23), id="precision_half"),
    OracleCase(OP, dict(precision=TensorProto.DOUBLE), [X, f(0.1), np.int8(0)], all_since(OP, 23),
               id="precision_double"),
    OracleCase(OP, {}, [X, f(1.5).astype(np.float16), np.uint8(0)], all_since(OP, 23, 25), oracle="ort",
               id="scale_type_decides"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, x: list[int], scale: list[int], attrs: dict[str, int] | None = None) -> object:
    return shape_case(OP, opset, [x, np.ones(scale, np.float32)], attrs)


SHAPES = [_case(opset, [2, 3, 4], []) for opset in ALL]
SHAPES += [_case(opset, [2, 3, 4], [3]) for opset in all_since(OP, 13)]
SHAPES += [_case(opset, [2, 3, 4], [2, 3, 2], {"axis": -1, "block_size": 3}) for opset in all_since(OP, 21)]

REJECTED = [
    (shape_case(OP, 10, [[2, 3], [3]]), "quantizelinear_c2"),
    (shape_case(OP, 13, [[2, 3], [], np.zeros(2, np.uint8)]), "quantizelinear_c1"),
    (shape_case(OP, 13, [[2, 3], [2]]), "quantizelinear_c3"),
    (shape_case(OP, 19, [[2, 3], [3]], {"axis": 2}), "quantizelinear_c3"),
    (shape_case(OP, 21, [[2, 3], [2, 3]]), "quantizelinear_c4"),
    (shape_case(OP, 23, [[2, 5], [2, 2]], {"axis": 1, "block_size": 2}), "quantizelinear_c4"),
    (shape_case(OP, 25, [[2, 5], [2, 3]], {"axis": 1, "block_size": 2, "output_dtype": 1}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_validator_types_y_from_output_dtype() -> None:
    from opset.validate import check_model

    node = helper.make_node("QuantizeLinear", ["x", "s"], ["y"], output_dtype=TensorProto.INT16)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
                                            helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
                              [onnx.ValueInfoProto(name="y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    facts = check_model(model, None).facts["y"]
    assert (facts.type, facts.shape) == ("tensor(int16)", (2, 3))
