"""Shrink: the kernel against onnx.reference and onnxruntime (floats; integers truncated toward zero and wrapped),
the shape formula against onnx."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from tests.helpers import OracleCase, Seeded, all_since, oracle_tests, run, shape_case, shape_tests

OP = "Shrink"
data = Seeded(2012)
X = data.f32(3, 4, 5) * 2
STEPS = np.arange(-8, 9, dtype=np.float32) / 4  # hits +-lambd exactly
INTS = np.array([-7, -3, -2, -1, 0, 1, 2, 3, 7], np.int32)
BYTES = np.array([0, 1, 2, 3, 200, 255], np.uint8)

CASES = [
    OracleCase(OP, {}, [X], all_since(OP), id="default"),
    OracleCase(OP, dict(lambd=0.5, bias=0.25), [STEPS], all_since(OP), id="at_lambd"),
    OracleCase(OP, dict(lambd=1.5, bias=2.75), [INTS], all_since(OP), id="int_toward_zero"),
    OracleCase(OP, dict(lambd=1.5, bias=2.75), [INTS], all_since(OP), oracle="ort", id="int_toward_zero_ort"),
    OracleCase(OP, dict(lambd=0.5, bias=-1.5), [BYTES], all_since(OP), id="uint8_wraps"),
    OracleCase(OP, dict(lambd=0.5, bias=2.5), [BYTES.astype(np.uint16)], all_since(OP), oracle="ort",
               id="uint16_wraps_below_zero"),
    OracleCase(OP, dict(lambd=1.0, bias=1.0), [INTS.astype(np.int64)], all_since(OP), id="int64"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [shape_case(OP, 9, [[2, 3, 4]]), shape_case(OP, 9, [[]], {"lambd": 1.0, "bias": 0.5})]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


INT_TYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


def _exact(x: int, lambd: float, bias: float, dtype: type[np.integer]) -> int:
    """The formula in rational arithmetic, truncated toward zero, wrapped into `dtype`."""
    xq, lq, bq = Fraction(x), Fraction(lambd), Fraction(bias)
    y = math.trunc(xq + bq) if xq < -lq else math.trunc(xq - bq) if xq > lq else 0
    bits = 8 * np.dtype(dtype).itemsize
    y %= 2**bits
    return y - 2**bits if np.iinfo(dtype).min < 0 and y >= 2 ** (bits - 1) else y


@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda t: np.dtype(t).name)
def test_integers_are_exact_at_the_ends_of_the_type(dtype: type[np.integer]) -> None:
    """Against rational arithmetic: values at both ends of the type (and past 2^53), fractional and huge lambd
    and bias, so that results wrap and would lose bits in double or single precision."""
    info = np.iinfo(dtype)
    candidates = [int(info.min), int(info.min) + 1, -3, -1, 0, 1, 2, 2**53 + 1, 2**62 + 3, int(info.max) - 1,
                  int(info.max)]
    x = np.array(sorted({v for v in candidates if info.min <= v <= info.max}), dtype)
    for lambd, bias in ((0.5, 1.5), (0.25, -2.75), (2.0, 0.125), (-1.5, 3.0), (3e9, -7e9), (1e30, 1e20)):
        lambd, bias = float(np.float32(lambd)), float(np.float32(bias))  # as a node stores them
        y = run("ai.onnx", OP, 9, [x], lambd=lambd, bias=bias)[0]
        assert y.dtype == x.dtype
        want = [_exact(v, lambd, bias, dtype) for v in x.tolist()]
        assert y.tolist() == want, f"lambd={lambd} bias={bias}: {x.tolist()}"
