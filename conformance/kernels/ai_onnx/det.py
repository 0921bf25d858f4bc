"""Det (11, 22): determinants of the inner-most square matrices; half precision is computed in float32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Det", since=11)
def det(x: np.ndarray) -> tuple[np.ndarray, ...]:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Det: X {x.shape} must end in square matrices")
    return (np.asarray(np.linalg.det(x.astype(work_dtype(x), copy=False))).astype(x.dtype),)
