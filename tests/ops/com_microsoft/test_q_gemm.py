"""com.microsoft QGemm: the kernel against onnxruntime (uint8/int8 A with int8/uint8 B; transA and transB; alpha;
per-tensor and per-column b_scale/b_zero_point; an int32 C of each broadcast shape; a quantized output and a float
one), the shape formula against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, assert_shapes_match_onnxruntime, oracle_tests, problem_checks, version

DOMAIN = "com.microsoft"
OP = "QGemm"
RNG = np.random.default_rng(47)


def f(v: float | list[float]) -> np.ndarray:
    return np.array(v, np.float32)


def full(dtype: type[np.integer[Any]], *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, shape).astype(dtype)


def case(at: type[np.integer[Any]], bt: type[np.integer[Any]], m: int, k: int, n: int, attrs: dict[str, Any],
         id: str, *, per_column: bool = False, c_shape: tuple[int, ...] | None = None,
         out: type[np.integer[Any]] | None = None) -> OracleCase:
    a = full(at, *((k, m) if attrs.get("transA") else (m, k)))
    b = full(bt, *((n, k) if attrs.get("transB") else (k, n)))
    b_scale = f(list(RNG.uniform(0.001, 0.01, n))) if per_column else f(0.004)
    b_zp = (np.zeros(n, bt) if bt == np.int8 else RNG.integers(100, 150, n).astype(bt)) if per_column \
        else np.array(0 if bt == np.int8 else 128, bt)
    c = None if c_shape is None else RNG.integers(-5000, 5000, c_shape).astype(np.int32)
    y = [None, None] if out is None else [f(0.37), np.array(-7 if out == np.int8 else 121, out)]
    a_zp = np.array(3 if at == np.int8 else 130, at)
    return OracleCase(OP, attrs, [a, f(0.03), a_zp, b, b_scale, b_zp, c, *y], (1,), oracle="ort", id=id,
                      domain=DOMAIN)


CASES = [
    case(np.uint8, np.int8, 4, 7, 5, {}, "u8_s8_float_out"),
    case(np.uint8, np.uint8, 4, 7, 5, {}, "u8_u8_quantized", out=np.uint8),
    case(np.int8, np.int8, 3, 6, 4, {"transA": 1}, "i8_trans_a", out=np.int8),
    case(np.uint8, np.int8, 5, 8, 3, {"transB": 1, "alpha": 0.5}, "u8_trans_b_alpha", per_column=True,
         out=np.uint8),
    case(np.uint8, np.int8, 4, 7, 5, {"transA": 1, "transB": 1, "alpha": 2.0}, "u8_both_trans_c_full",
         c_shape=(4, 5)),
    case(np.uint8, np.uint8, 4, 7, 5, {}, "u8_per_column_c_row", per_column=True, c_shape=(5,), out=np.uint8),
    case(np.int8, np.int8, 4, 7, 5, {"alpha": -1.5}, "i8_c_column_negative_alpha", c_shape=(4, 1), out=np.int8),
    case(np.uint8, np.int8, 2, 3, 2, {}, "u8_c_scalar", c_shape=(1,)),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("a_shape", "b_shape", "attrs"), [
    ((3, 4), (4, 5), {}), ((4, 3), (5, 4), {"transA": 1, "transB": 1}),
])
def test_shape_formula_matches_onnxruntime(a_shape: tuple[int, ...], b_shape: tuple[int, ...],
                                           attrs: dict[str, Any]) -> None:
    inputs = [np.zeros(a_shape, np.uint8), f(0.1), np.array(0, np.uint8), np.zeros(b_shape, np.int8), f(0.1),
              np.array(0, np.int8), None, f(0.1), np.array(0, np.uint8)]
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[3, 4], [], [], [5, 2], [], [], None, None, None], {}, "qgemm_c1", id="v1-inner"),
    pytest.param([[3, 4], [], [], [4, 2], [2], [], None, None, None], {}, "qgemm_c3", id="v1-b_params"),
    pytest.param([[3, 4], [], [], [4, 2], [], [], [3, 3], None, None], {}, "qgemm_c4", id="v1-c"),
    pytest.param([[3, 4], [], [], [4, 2], [], [], None, [], None], {}, "qgemm_c5", id="v1-y_pair"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
