"""LayerNormalization-1 of onnxruntime's default domain (its contrib op, before onnx's version 17): onnx's
LayerNormalization-17, with Mean and InvStdDev of the stash type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.layer_normalization import layer_normalization as onnx_layer_normalization
from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "LayerNormalization", since=1)
def layer_normalization(x: np.ndarray, scale: np.ndarray, bias: np.ndarray | None, *, axis: int, epsilon: float,
                        stash_type: int) -> tuple[np.ndarray, ...]:
    return onnx_layer_normalization(x, scale, bias, axis=axis, epsilon=epsilon, stash_type=stash_type)
