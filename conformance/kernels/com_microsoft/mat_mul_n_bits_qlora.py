"""com.microsoft MatMulNBitsQLoRA: Y = X @ W^T + (X @ lora_A^T) @ lora_B^T, three MatMulNBits-packed weights
(W [N, K] with bits and block_size; lora_A [R, K] and lora_B [N, R] with lora_bits and lora_block_size), each with
the implicit zero point 2^(bits - 1) and no bias.

R is the row count of lora_A_scales ([R, ceil(K / lora_block_size)], or flat). An empty lora_B gives the base
projection alone; an empty lora_A a zero down projection, still multiplied by lora_B. The three projections are
computed in float32 and each is rounded to X's type before the final addition (float16 arrives as it is; bfloat16
arrives widened, so its intermediates stay in float32).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.mat_mul_n_bits_qkv import projection
from conformance.kernels.registry import kernel

OP = "MatMulNBitsQLoRA"


@kernel("com.microsoft", "MatMulNBitsQLoRA", since=1)
def mat_mul_n_bits_qlora(X: np.ndarray, W: np.ndarray, scales: np.ndarray, lora_A: np.ndarray,
                           lora_A_scales: np.ndarray, lora_B: np.ndarray, lora_B_scales: np.ndarray, *, K: int, N: int,
                           accuracy_level: int, bits: int, block_size: int, lora_bits: int,
                           lora_block_size: int) -> tuple[np.ndarray, ...]:
    if X.ndim < 1 or X.shape[-1] != K:
        raise ValueError(f"{OP}: X's last dim must be K={K}, got {list(X.shape)}")
    x = X.astype(np.float32)
    base = projection(OP, x, W, scales, None, K, N, bits, block_size).astype(X.dtype)
    if lora_B.size == 0:
        return (base,)
    k_blocks = -(-K // lora_block_size)
    rank = lora_A_scales.shape[0] if lora_A_scales.ndim == 2 else lora_A_scales.size // k_blocks
    if lora_A.size == 0:
        down = np.zeros((*X.shape[:-1], rank), X.dtype)
    else:
        down = projection(OP, x, lora_A, lora_A_scales, None, K, rank, lora_bits, lora_block_size).astype(X.dtype)
    up = projection(OP, down.astype(np.float32), lora_B, lora_B_scales, None, rank, N, lora_bits,
                    lora_block_size).astype(X.dtype)
    return (np.asarray(base + up, X.dtype),)
