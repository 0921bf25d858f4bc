"""Concat: join along `axis` (negative from opset 11)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Concat", since=1)
def concat(*inputs: np.ndarray, axis: int) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Concat: needs at least one input")
    (ax,) = normalize_axes("Concat", [axis], inputs[0].ndim)
    ref = inputs[0].shape
    for x in inputs[1:]:
        if x.ndim != len(ref) or any(x.shape[i] != ref[i] for i in range(len(ref)) if i != ax):
            raise ValueError(f"Concat: shape {x.shape} does not match {ref} outside axis {ax}")
    return (np.concatenate(inputs, axis=ax),)
