"""com.microsoft Trilu: onnxruntime runs the kernel of ai.onnx Trilu (14) for it."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.trilu import trilu as onnx_trilu
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Trilu", since=1)
def trilu(x: np.ndarray, k: np.ndarray | None, *, upper: int) -> tuple[np.ndarray, ...]:
    if k is not None and k.ndim > 1:
        raise ValueError(f"Trilu: k must be a scalar or a one-element vector, it has shape {list(k.shape)}")
    return onnx_trilu(x, k, upper=upper)
