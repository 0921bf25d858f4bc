"""DynamicSlice (onnxruntime's default domain, onnx's experimental op): Slice-10 without steps."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.slice import slice_
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "DynamicSlice", since=1)
def dynamic_slice(data: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  axes: np.ndarray | None) -> tuple[np.ndarray, ...]:
    return slice_(data, starts, ends, axes, None)
