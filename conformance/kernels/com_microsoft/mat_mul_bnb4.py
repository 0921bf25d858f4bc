"""com.microsoft MatMulBnb4: MatMul with a 4-bit weight in bitsandbytes' FP4 or NF4 code, as onnxruntime's CPU
kernel computes it.

B holds the N * K codes of the weight [N, K] (row-major), two a byte, the first in the high nibble; code c of flat
element i decodes to table[c] * absmax[i // block_size]. Y = A @ W^T (transB 1, A [..., K]) or A @ W (transB 0, A
[..., N]), computed in float32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

OP = "MatMulBnb4"

FP4 = np.array([0.0, 5.208333333e-03, 0.66666667, 1.0, 0.33333333, 0.5, 0.16666667, 0.25,
                -0.0, -5.208333333e-03, -0.66666667, -1.0, -0.33333333, -0.5, -0.16666667, -0.25], np.float32)
NF4 = np.array([-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
                -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
                0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
                0.7229568362236023, 1.0], np.float32)


def bnb4_weight(b: np.ndarray, absmax: np.ndarray, n: int, k: int, block_size: int, quant_type: int) -> np.ndarray:
    """The dequantized weight [N, K] in float32."""
    count = n * k
    blocks = -(-count // block_size)
    if b.shape != ((count + 1) // 2,) or absmax.shape != (blocks,):
        raise ValueError(f"{OP}: B must be [{(count + 1) // 2}] and absmax [{blocks}] for N={n}, K={k}, block_size="
                         f"{block_size}; got {list(b.shape)} and {list(absmax.shape)}")
    if quant_type not in (0, 1):
        raise ValueError(f"{OP}: quant_type must be 0 (FP4) or 1 (NF4), got {quant_type}")
    codes = np.stack([b >> 4, b & 0xF], axis=-1).reshape(-1)[:count]
    table = FP4 if quant_type == 0 else NF4
    scale = np.repeat(absmax.astype(np.float32), block_size)[:count]
    return np.asarray((table[codes] * scale).reshape(n, k), np.float32)


@kernel("com.microsoft", "MatMulBnb4", since=1)
def mat_mul_bnb4(A: np.ndarray, B: np.ndarray, absmax: np.ndarray, *, K: int, N: int, block_size: int,
                 quant_type: int, training_mode: int, transB: int) -> tuple[np.ndarray, ...]:
    weight = bnb4_weight(B, absmax, N, K, block_size, quant_type)
    width = K if transB else N
    if A.ndim < 1 or A.shape[-1] != width:
        raise ValueError(f"{OP}: A's last dim must be {width} (transB={transB}), got {list(A.shape)}")
    y = A.astype(np.float32) @ (weight.T if transB else weight)
    return (np.asarray(y).astype(A.dtype),)
