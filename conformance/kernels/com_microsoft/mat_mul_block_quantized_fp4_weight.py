"""com.microsoft MatMulBlockQuantizedFp4Weight: Y = A @ W^T + bias for an NVFP4 weight W [N, K].

B [N, K/2] holds the E2M1 codes two a byte, the first (even k) in the low nibble; code c decodes to
(-1)^(c >> 3) * [0, 0.5, 1, 1.5, 2, 3, 4, 6][c & 7]. weight_scale [N, ceil(K / block_size)] holds raw E4M3 bytes, one
scale per block of K; weight_scale_2 is one float32 scale: W[n, k] = e2m1(B) * weight_scale_2 * e4m3(weight_scale[n,
k // block_size]). input_scale changes nothing (the text: a no-op on the FP16/BF16 path). The product is computed in
float32 (float16 and bfloat16 A arrive widened; Y is rounded back to A's type once).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.kernels.com_microsoft.mat_mul_block_quantized_fp8_weight import block_scaled, matmul_bias, single
from conformance.kernels.registry import kernel

OP = "MatMulBlockQuantizedFp4Weight"
E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0], np.float32)


@kernel("com.microsoft", "MatMulBlockQuantizedFp4Weight", since=1)
def mat_mul_block_quantized_fp4_weight(A: np.ndarray, B: np.ndarray, weight_scale: np.ndarray,
                                       weight_scale_2: np.ndarray, input_scale: np.ndarray | None,
                                       bias: np.ndarray | None, *, block_size: int) -> tuple[np.ndarray, ...]:
    if B.ndim != 2:
        raise ValueError(f"{OP}: B must be [N, K / 2], got {list(B.shape)}")
    if input_scale is not None:
        single(OP, "input_scale", input_scale)
    codes = np.stack([B & 0xF, B >> 4], axis=-1).reshape(B.shape[0], 2 * B.shape[1])
    scales = weight_scale.astype(np.uint8).view(ml_dtypes.float8_e4m3fn).astype(np.float32)
    weight = block_scaled(OP, E2M1[codes] * single(OP, "weight_scale_2", weight_scale_2), scales, block_size)
    return (matmul_bias(OP, A, weight, bias).astype(A.dtype),)
