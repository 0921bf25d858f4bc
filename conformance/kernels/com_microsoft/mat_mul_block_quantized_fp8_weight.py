"""com.microsoft MatMulBlockQuantizedFp8Weight: Y = A' @ (B * b_scale)^T + bias for a float8 E4M3 weight B [N, K]
with one float32 scale per block of block_size values along K.

Without a_scale A is used as it is (W8A16); with it A' = e4m3(A / a_scale) * a_scale (W8A8), the division's result
rounded to E4M3 (nearest even, saturating at +-448). The product is computed in float32 (float16 and bfloat16 A
arrive widened; Y is rounded back to A's type once).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.kernels.registry import kernel

OP = "MatMulBlockQuantizedFp8Weight"
E4M3_MAX = 448.0


def block_scaled(op: str, weight: np.ndarray, scale: np.ndarray, block_size: int) -> np.ndarray:
    """weight [N, K] times its per-block scales [N, ceil(K / block_size)], in float32."""
    n, k = weight.shape
    blocks = -(-k // block_size)
    if scale.shape != (n, blocks):
        raise ValueError(f"{op}: the weight scales must be [{n}, {blocks}] (N, ceil(K / block_size)), got "
                         f"{list(scale.shape)}")
    return np.asarray(weight.astype(np.float32) * np.repeat(scale.astype(np.float32), block_size, axis=1)[:, :k],
                      np.float32)


def matmul_bias(op: str, a: np.ndarray, weight: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    """a [..., K] @ weight [N, K]^T + bias, in float32."""
    n, k = weight.shape
    if a.ndim < 1 or a.shape[-1] != k:
        raise ValueError(f"{op}: A's last dim must be K={k}, got {list(a.shape)}")
    if bias is not None and bias.shape != (n,):
        raise ValueError(f"{op}: bias must be [{n}], got {list(bias.shape)}")
    y = a.astype(np.float32) @ weight.T
    return np.asarray(y if bias is None else y + bias.astype(np.float32), np.float32)


def single(op: str, name: str, value: np.ndarray) -> np.float32:
    if value.size != 1:
        raise ValueError(f"{op}: {name} must be a single value, got shape {list(value.shape)}")
    return np.float32(value.reshape(-1)[0])


@kernel("com.microsoft", "MatMulBlockQuantizedFp8Weight", since=1)
def mat_mul_block_quantized_fp8_weight(A: np.ndarray, B: np.ndarray, b_scale: np.ndarray, a_scale: np.ndarray | None,
                                       bias: np.ndarray | None, *, block_size: int) -> tuple[np.ndarray, ...]:
    if B.ndim != 2:
        raise ValueError(f"{OP}: B must be [N, K], got {list(B.shape)}")
    weight = block_scaled(OP, B, b_scale, block_size)
    a = A.astype(np.float32)
    if a_scale is not None:
        s = single(OP, "a_scale", a_scale)
        a = np.clip(a / s, -E4M3_MAX, E4M3_MAX).astype(ml_dtypes.float8_e4m3fn).astype(np.float32) * s
    return (matmul_bias(OP, a, weight, bias).astype(A.dtype),)
