"""Scaler: (X - offset) * scale, per feature (X's last axis) or with one value for all; float output."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "Scaler", since=1)
def scaler(X: np.ndarray, *, offset: list[float] | None, scale: list[float] | None) -> tuple[np.ndarray, ...]:
    if not offset or not scale or len(offset) != len(scale):
        raise ValueError(f"Scaler: offset and scale must both be given, with one length (got {offset}, {scale})")
    if X.ndim == 0:
        raise ValueError("Scaler: X needs at least one axis")
    if len(offset) != 1 and (len(offset) != X.shape[-1] or X.ndim > 2):
        raise ValueError(f"Scaler: {len(offset)} offsets for X of shape {list(X.shape)}: one, or one per feature "
                         "of an [N, F] or [F] tensor")
    shift = np.asarray(offset, dtype=np.float64)
    factor = np.asarray(scale, dtype=np.float64)
    return (((np.asarray(X, dtype=np.float64) - shift) * factor).astype(np.float32),)
