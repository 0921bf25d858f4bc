"""QLinearMatMul: the kernel against onnx.reference (no ties), onnxruntime (ties with odd zero points, per-column
scales) and a float64 product (per-row scales, which onnxruntime rejects); shapes against onnx; rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from conformance.element_types import numpy_dtype
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_tests,
    rejection_tests,
    run_onnx_reference,
    shape_case,
    shape_tests,
)

OP = "QLinearMatMul"
RAND = Seeded(1234)
ALL = all_since(OP)


def u8(*shape: int) -> np.ndarray:
    return RAND.ints(0, 256, shape, np.uint8)


def i8(*shape: int) -> np.ndarray:
    return RAND.ints(-128, 128, shape, np.int8)


def f(*values: float, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.asarray(values, np.float32).reshape(shape)


A, B = u8(3, 4), u8(4, 2)
# a multiplier of 0.5 * 0.25 / 0.5 = 1/4 puts every sum 2 (mod 4) on a tie; small operands keep it unsaturated
SMALL_A, SMALL_B = RAND.ints(0, 8, (4, 5), np.uint8), RAND.ints(0, 8, (5, 3), np.uint8)


def _args(a: np.ndarray, sa: np.ndarray, za: np.ndarray, b: np.ndarray, sb: np.ndarray, zb: np.ndarray,
          sy: np.ndarray, zy: np.ndarray) -> list[np.ndarray | None]:
    return [a, sa, za, b, sb, zb, sy, zy]


PER_ROW_SCALE, PER_ROW_ZERO = f(0.05, 0.1, 0.2, shape=(3,)), u8(3)


def _per_row() -> list[np.ndarray]:
    acc = (A.astype(np.float64) - PER_ROW_ZERO[:, None]) @ (B.astype(np.float64) - 7)
    y = np.rint(acc * PER_ROW_SCALE.astype(np.float64)[:, None] * 0.02 / 0.3) + 9
    return [np.clip(y, 0, 255).astype(np.uint8)]


E4M3 = numpy_dtype("float8e4m3fn")


def _float8_by_parts(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """onnx.reference has no float8 QLinearMatMul: its DequantizeLinear, MatMul and QuantizeLinear (scales 0.5, 2
    and 0.25, zero points 0) compute the same thing."""
    zero = numpy_helper.from_array(np.zeros((), E4M3), "zero")
    scales = [numpy_helper.from_array(np.array(v, np.float32), n) for n, v in (("sa", 0.5), ("sb", 2.0), ("sy", 0.25))]
    nodes = [helper.make_node("DequantizeLinear", ["a", "sa", "zero"], ["fa"]),
             helper.make_node("DequantizeLinear", ["b", "sb", "zero"], ["fb"]),
             helper.make_node("MatMul", ["fa", "fb"], ["fy"]),
             helper.make_node("QuantizeLinear", ["fy", "sy", "zero"], ["y"])]
    graph = helper.make_graph(nodes, "parts", [helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT8E4M3FN, None),
                                               helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT8E4M3FN, None)],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT8E4M3FN, None)],
                              initializer=[zero, *scales])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    return run_onnx_reference(model, {"a": a, "b": b})
F8_A = (np.arange(-6, 6, dtype=np.float32) / 2).reshape(3, 4).astype(E4M3)
F8_B = (np.arange(8, dtype=np.float32) - 3).reshape(4, 2).astype(E4M3)
CASES = [
    OracleCase(OP, {}, _args(A, f(0.02), u8(), B, f(0.03), u8(), f(0.1), u8()), ALL, id="per_tensor"),
    OracleCase(OP, {}, _args(F8_A, f(0.5), np.zeros((), E4M3), F8_B, f(2.0), np.zeros((), E4M3), f(0.25),
                             np.zeros((), E4M3)), (21,), oracle=lambda: _float8_by_parts(F8_A, F8_B), id="float8"),
    OracleCase(OP, {}, _args(i8(2, 3, 4), f(0.02), i8(), i8(4, 5), f(0.01), i8(), f(0.05), i8()), ALL,
               id="int8_batch"),
    OracleCase(OP, {}, _args(SMALL_A, f(0.5), np.uint8(3), SMALL_B, f(0.25), np.uint8(4), f(0.5), np.uint8(7)), ALL,
               oracle="ort", id="ties_odd_zero_point"),
    OracleCase(OP, {}, _args(A, f(0.02), u8(), B, f(0.01, 0.03, shape=(2,)), u8(2), f(0.1), u8()), ALL,
               oracle="ort", id="per_column"),
    OracleCase(OP, {}, _args(u8(4), f(0.02), u8(), u8(3, 4, 2), f(0.01, 0.03, shape=(1, 2)).repeat(3, 0)
                             .reshape(3, 1, 2), u8(3, 1, 2), f(0.1), u8()), ALL, oracle="ort", id="vector_batched"),
    OracleCase(OP, {}, _args(A, f(0.02), u8(), B, f(0.03), u8(), f(0.1, shape=(1,)), u8(1)), ALL, oracle="ort",
               id="one_element_y"),
    OracleCase(OP, {}, _args(A, f(0.25).astype(np.float16), u8(), B, f(0.5).astype(np.float16), u8(),
                             f(0.75).astype(np.float16), u8()), all_since(OP, 21), oracle="ort", id="half_scales"),
    OracleCase(OP, {}, _args(A, PER_ROW_SCALE, PER_ROW_ZERO, B, f(0.02), np.uint8(7), f(0.3), np.uint8(9)), ALL,
               oracle=_per_row, id="per_row"),
    # per tensor in mixed ranks ([1] scale, [] zero point and the other way): the one quantization rule
    OracleCase(OP, {}, _args(A, f(0.02, shape=(1,)), u8(), B, f(0.03), u8(1), f(0.1, shape=(1,)), u8()), ALL,
               oracle="ort", id="per_tensor_mixed_ranks"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _shapes(a: list[int], b: list[int], qa: list[int] | None = None, qb: list[int] | None = None,
            qy: list[int] | None = None) -> list[Any]:
    return [a, qa or [], qa or [], b, qb or [], qb or [], qy or [], qy or []]


SHAPES = [shape_case(OP, opset, [np.zeros(s, np.float32) if i in (1, 4, 6) else np.zeros(s, np.uint8)
                                 for i, s in enumerate(_shapes(a, b))])
          for opset in ALL for a, b in (([3, 4], [4, 2]), ([4], [4]), ([4], [2, 4, 3]), ([2, 1, 3, 4], [5, 4, 2]))]

REJECTED = [
    (shape_case(OP, 10, _shapes([2, 3], [4, 5])), "qlinearmatmul_c2"),
    (shape_case(OP, 10, _shapes([2, 2, 3], [3, 3, 4])), "qlinearmatmul_c3"),
    (shape_case(OP, 21, [[2, 3], [2], [], [3, 4], [], [], [], []]), "qlinearmatmul_c4"),
    (shape_case(OP, 21, _shapes([2, 3], [3, 4], qa=[3])), "qlinearmatmul_c5"),
    (shape_case(OP, 10, _shapes([2, 3], [3, 4], qb=[3])), "qlinearmatmul_c6"),
    (shape_case(OP, 10, _shapes([2, 3], [3, 4], qy=[2])), "qlinearmatmul_c7"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
