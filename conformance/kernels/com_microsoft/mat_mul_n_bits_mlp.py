"""com.microsoft MatMulNBitsMlp: Y = silu(gate) * up with gate and up two MatMulNBits projections (their optional
biases added) of A, of RMS-normalized A when norm_scale is given (of A + skip with skip).

The normalization is SimplifiedLayerNormalization's, x / sqrt(mean(x^2) + epsilon) * norm_scale over the last axis;
each weight is MatMulNBits' with the implicit zero point 2^(bits - 1); silu(x) = x * sigmoid(x), the one activation
onnxruntime accepts. Everything is computed in float32 (float16 and bfloat16 arrive widened; each output is rounded
to A's type once). input_skip_bias_sum is A + skip.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.mat_mul_n_bits_qkv import projection, rms_normalized
from conformance.kernels.registry import kernel

OP = "MatMulNBitsMlp"


@kernel("com.microsoft", "MatMulNBitsMlp", since=1, requested_outputs=True)
def mat_mul_n_bits_mlp(A: np.ndarray, skip: np.ndarray | None, norm_scale: np.ndarray | None, gate_B: np.ndarray,
                       gate_scales: np.ndarray, gate_bias: np.ndarray | None, up_B: np.ndarray, up_scales: np.ndarray,
                       up_bias: np.ndarray | None, *, K: int, N: int, accuracy_level: int, activation: str, bits: int,
                       block_size: int, epsilon: float, requested_outputs: int) -> tuple[np.ndarray, ...]:
    if activation != "silu":
        raise ValueError(f"{OP}: activation must be 'silu', got {activation!r}")
    if A.ndim < 1 or A.shape[-1] != K:
        raise ValueError(f"{OP}: A's last dim must be K={K}, got {list(A.shape)}")
    x = A.astype(np.float32)
    if skip is not None:
        if norm_scale is None or skip.shape != A.shape:
            raise ValueError(f"{OP}: skip must have A's shape {list(A.shape)} and come with norm_scale")
        x = x + skip.astype(np.float32)
    normed = x if norm_scale is None else rms_normalized(OP, x, norm_scale, epsilon)
    gate = projection(OP, normed, gate_B, gate_scales, gate_bias, K, N, bits, block_size)
    up = projection(OP, normed, up_B, up_scales, up_bias, K, N, bits, block_size)
    y = gate / (np.float32(1) + np.exp(-gate)) * up
    return (y.astype(A.dtype), x.astype(A.dtype))[:requested_outputs]
