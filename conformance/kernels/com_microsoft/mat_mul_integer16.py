"""com.microsoft MatMulInteger16: numpy.matmul of 16-bit integers into a 32-bit accumulator (wrapping).

Y is uint32 when both A and B are uint16, int32 otherwise.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.mat_mul import checked_matmul
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "MatMulInteger16", since=1)
def mat_mul_integer16(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    out = np.uint32 if a.dtype == np.uint16 and b.dtype == np.uint16 else np.int32
    y = checked_matmul("MatMulInteger16", a.astype(np.int64), b.astype(np.int64))
    return (y.astype(out),)
