"""com.microsoft MatMulNBitsQkv: RMS normalization of A (of A + skip when skip is given) by norm_scale, then three
MatMulNBits projections of the normalized rows: Q [..., Nq], K and V [..., Nkv], each with its optional bias.

The normalization is SimplifiedLayerNormalization's, x / sqrt(mean(x^2) + epsilon) * norm_scale over the last axis;
each weight is MatMulNBits' (blocks of block_size along K, bits bits a value, low bits first, the implicit zero point
2^(bits - 1)). Everything is computed in float32 (float16 and bfloat16 arrive widened; each output is rounded to A's
type once). input_skip_bias_sum is A + skip (A without skip).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.mat_mul_n_bits import dequantized_weight
from conformance.kernels.registry import kernel

OP = "MatMulNBitsQkv"


def rms_normalized(op: str, x: np.ndarray, scale: np.ndarray, epsilon: float) -> np.ndarray:
    if scale.shape != (x.shape[-1],):
        raise ValueError(f"{op}: norm_scale must be [{x.shape[-1]}], got {list(scale.shape)}")
    mean_square = np.mean(x * x, axis=-1, keepdims=True, dtype=np.float32)
    return np.asarray(x / np.sqrt(mean_square + np.float32(epsilon)) * scale.astype(np.float32), np.float32)


def projection(op: str, x: np.ndarray, b: np.ndarray, scales: np.ndarray, bias: np.ndarray | None, k: int, n: int,
               bits: int, block_size: int) -> np.ndarray:
    y = x @ dequantized_weight(op, b, scales, None, None, k, n, bits, block_size).T
    if bias is not None:
        if bias.shape != (n,):
            raise ValueError(f"{op}: a projection's bias must be [{n}], got {list(bias.shape)}")
        y = y + bias.astype(np.float32)
    return np.asarray(y, np.float32)


@kernel("com.microsoft", "MatMulNBitsQkv", since=1, requested_outputs=True)
def mat_mul_n_bits_qkv(A: np.ndarray, skip: np.ndarray | None, norm_scale: np.ndarray, q_B: np.ndarray,
                       q_scales: np.ndarray, q_bias: np.ndarray | None, k_B: np.ndarray, k_scales: np.ndarray,
                       k_bias: np.ndarray | None, v_B: np.ndarray, v_scales: np.ndarray, v_bias: np.ndarray | None, *,
                       K: int, Nkv: int, Nq: int, accuracy_level: int, bits: int, block_size: int, epsilon: float,
                       requested_outputs: int) -> tuple[np.ndarray, ...]:
    if A.ndim < 1 or A.shape[-1] != K:
        raise ValueError(f"{OP}: A's last dim must be K={K}, got {list(A.shape)}")
    x = A.astype(np.float32)
    if skip is not None:
        if skip.shape != A.shape:
            raise ValueError(f"{OP}: skip must have A's shape {list(A.shape)}, got {list(skip.shape)}")
        x = x + skip.astype(np.float32)
    normed = rms_normalized(OP, x, norm_scale, epsilon)
    weights = ((q_B, q_scales, q_bias, Nq), (k_B, k_scales, k_bias, Nkv), (v_B, v_scales, v_bias, Nkv))
    outs = [projection(OP, normed, b, s, bias, K, n, bits, block_size) for b, s, bias, n in weights]
    return tuple(o.astype(A.dtype) for o in [*outs, x])[:requested_outputs]
