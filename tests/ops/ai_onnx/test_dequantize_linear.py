"""DequantizeLinear: the kernel against onnx.reference (per tensor / axis / block, every integer x type, x_scale's
type, output_dtype), shapes against onnx, rejected nodes, the validator's type from output_dtype."""

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

OP = "DequantizeLinear"
RAND = Seeded(1234)
ALL = all_since(OP)


def f(*values: float, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.asarray(values, np.float32).reshape(shape)


U8, I8 = RAND.ints(0, 256, (2, 3, 4), np.uint8), RAND.ints(-128, 128, (2, 3, 4), np.int8)

OLD, NEW = all_since(OP, 10, 18), all_since(OP, 19)  # onnx.reference starts at 19: older versions use its 19


def both(attrs: dict[str, int], inputs: list[np.ndarray | None], name: str, since: int = 10) -> list[OracleCase]:
    """The case at every version from `since`: onnx.reference at 19 for the older ones, its own version after."""
    return [OracleCase(OP, attrs, inputs, tuple(v for v in OLD if v >= since), oracle="ref@19", id=f"{name}_old"),
            OracleCase(OP, attrs, inputs, NEW, id=name)]


CASES = [
    *both({}, [U8, f(0.5), np.uint8(128)], "uint8"),
    *both({}, [I8, f(0.25, shape=(1,))], "int8_no_zero_point"),
    *both({}, [RAND.ints(-2**31, 2**31 - 1, (3, 4), np.int32), f(0.001)], "int32"),
    *both(dict(axis=1), [I8, f(1, 2, 0.5, shape=(3,)), np.array([0, 3, -3], np.int8)], "per_axis", since=13),
    OracleCase(OP, {}, [U8, f(0.5).astype(np.float16), np.uint8(7)], all_since(OP, 19), id="half_scale"),
    OracleCase(OP, dict(axis=-1, block_size=3), [RAND.ints(0, 65536, (2, 3, 4), np.uint16),
                                                 f(*range(1, 13), shape=(2, 3, 2)) / 8,
                                                 RAND.ints(0, 999, (2, 3, 2), np.uint16)], all_since(OP, 21),
               id="blocked_uint16"),
    OracleCase(OP, dict(axis=0), [RAND.ints(-999, 999, (2, 3), np.int16), f(0.5, 2, shape=(2,))],
               all_since(OP, 21), id="int16_per_axis"),
    OracleCase(OP, dict(output_dtype=TensorProto.FLOAT16), [I8, f(0.125), np.int8(-1)], all_since(OP, 23),
               id="output_dtype_half"),
    OracleCase(OP, dict(output_dtype=TensorProto.FLOAT), [U8, f(0.5).astype(np.float16)], all_since(OP, 23),
               id="output_dtype_float"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _case(opset: int, x: list[int], scale: list[int], attrs: dict[str, int] | None = None) -> object:
    return shape_case(OP, opset, [np.zeros(x, np.int8), np.ones(scale, np.float32)], attrs)


SHAPES = [_case(opset, [2, 3, 4], []) for opset in ALL]
SHAPES += [_case(opset, [2, 3, 4], [3]) for opset in all_since(OP, 13)]
SHAPES += [_case(opset, [2, 3, 4], [2, 2, 4], {"axis": 1, "block_size": 2}) for opset in all_since(OP, 21)]

REJECTED = [
    (shape_case(OP, 10, [[2, 3], [3]]), "dequantizelinear_c2"),
    (shape_case(OP, 13, [[2, 3], [], [2]]), "dequantizelinear_c1"),
    (shape_case(OP, 13, [[2, 3], [2]]), "dequantizelinear_c3"),
    (shape_case(OP, 21, [[2, 3], [2, 3]]), "dequantizelinear_c4"),
    (shape_case(OP, 24, [[2, 5], [2, 2]], {"axis": 1, "block_size": 2}), "dequantizelinear_c4"),
    (shape_case(OP, 23, [[2, 3], []], {"output_dtype": 3}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_validator_types_y_from_output_dtype() -> None:
    from opset.validate import check_model

    node = helper.make_node("DequantizeLinear", ["x", "s"], ["y"], output_dtype=TensorProto.FLOAT16)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.INT8, [4]),
                                            helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
                              [onnx.ValueInfoProto(name="y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    assert check_model(model, None).facts["y"].type == "tensor(float16)"
