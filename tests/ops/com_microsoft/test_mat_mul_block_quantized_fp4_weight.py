"""com.microsoft MatMulBlockQuantizedFp4Weight: onnxruntime has no CPU kernel (CUDA only) and no CPU DequantizeLinear
for the packed layout, so the kernel is checked against a hand-derived case and against the weight rebuilt
independently (ml_dtypes' float4_e2m1fn and float8_e4m3fn decoding the bytes, a float64 product); the shape
formula, rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tests.helpers import assert_registry_ranges_exercised, formula_shapes, problem_checks, run, version

DOMAIN = "com.microsoft"
OP = "MatMulBlockQuantizedFp4Weight"
RNG = np.random.default_rng(4)


def test_hand_derived_codes_and_scales() -> None:
    """Byte 0x2F: k=0 the low nibble 0xF (-6), k=1 the high 0x2 (1); scale byte 0x38 is E4M3 1.0, 0x40 is 2.0."""
    b = np.array([[0x2F], [0x91]], np.uint8)  # row 1: k=0 code 1 (0.5), k=1 code 9 (-0.5)
    scale = np.array([[0x38], [0x40]], np.uint8)
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float16)
    bias = np.array([0.25, -0.25], np.float16)
    y = run(DOMAIN, OP, 1, [a, b, scale, np.array(0.5, np.float32), None, bias], block_size=16)[0]
    w = np.array([[-6.0 * 0.5, 1.0 * 0.5], [0.5 * 0.5 * 2, -0.5 * 0.5 * 2]])  # [N, K]
    np.testing.assert_array_equal(y, (a.astype(np.float64) @ w.T + bias).astype(np.float16))


@pytest.mark.parametrize(("a_shape", "n", "block", "dtype"), [
    ((3, 32), 4, 16, np.float16), ((2, 2, 40), 3, 16, ml_dtypes.bfloat16), ((10,), 5, 4, np.float16)])
def test_kernel_matches_an_independent_decoding(a_shape: tuple[int, ...], n: int, block: int, dtype: Any) -> None:
    k = a_shape[-1]
    a = RNG.uniform(-2, 2, a_shape).astype(dtype)
    b = RNG.integers(0, 256, (n, k // 2)).astype(np.uint8)
    scale = RNG.uniform(0.1, 4, (n, -(-k // block))).astype(np.float32).astype(ml_dtypes.float8_e4m3fn).view(np.uint8)
    global_scale = np.array(0.75, np.float32)
    codes = np.empty((n, k), np.uint8)
    codes[:, 0::2], codes[:, 1::2] = b & 0xF, b >> 4
    values = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float64)
    per_k = scale.view(ml_dtypes.float8_e4m3fn).astype(np.float64)[:, np.arange(k) // block]
    want = (a.astype(np.float64) @ (values * 0.75 * per_k).T).astype(dtype)
    got = run(DOMAIN, OP, 1, [a, b, scale, global_scale, np.array(3.0, np.float32), None], block_size=block)[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-2, atol=1e-2)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {1})


def test_shape_formula() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [[2, 3, 32], [5, 16], [5, 2], []], {}) == [[2, 3, 5]]


@pytest.mark.parametrize(("inputs", "message"), [
    pytest.param([np.ones((2, 6), np.float16), np.ones((3, 2), np.uint8), np.ones((3, 1), np.uint8),
                  np.array(1.0, np.float32), None, None], "last dim", id="a_width"),
    pytest.param([np.ones((2, 4), np.float16), np.ones((3, 2), np.uint8), np.ones((3, 2), np.uint8),
                  np.array(1.0, np.float32), None, None], "weight scales", id="scale_blocks"),
    pytest.param([np.ones((2, 4), np.float16), np.ones((3, 2), np.uint8), np.ones((3, 1), np.uint8),
                  np.ones(2, np.float32), None, None], "weight_scale_2", id="global_scale_two"),
])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, block_size=16)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[3, 31], [4, 16], [4, 2], []], "matmulblockquantizedfp4weight_c1", id="a_width"),
    pytest.param([[3, 32], [4, 16], [4, 3], []], "matmulblockquantizedfp4weight_c2", id="scale_blocks"),
    pytest.param([[3, 32], [4, 16], [4, 2], [2]], "matmulblockquantizedfp4weight_c3", id="global_scale_two"),
    pytest.param([[3, 32], [4, 16], [4, 2], [], None, [3]], "matmulblockquantizedfp4weight_c4", id="bias_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {})
