"""What SkipLayerNormalization and SkipSimplifiedLayerNormalization share: checking the shapes and adding input, skip
and bias before normalizing each row over the hidden (last) axis, in float32 (double stays double)."""

from __future__ import annotations

import numpy as np


def skip_sum(op: str, x: np.ndarray, skip: np.ndarray, gamma: np.ndarray, others: dict[str, np.ndarray | None]
             ) -> tuple[np.ndarray, np.dtype]:
    """input + skip (+ bias) in the working type, after the shape checks onnxruntime makes: input 2-D or 3-D; skip of
    the input's shape, or for a 3-D input (1, sequence, hidden) or (sequence, hidden); gamma, beta and bias
    (hidden,)."""
    if x.ndim not in (2, 3):
        raise ValueError(f"{op}: input must be 2-D or 3-D, got {x.shape}")
    fits = skip.shape == x.shape or (x.ndim == 3 and skip.shape in (x.shape[1:], (1, *x.shape[1:])))
    if not fits:
        raise ValueError(f"{op}: skip {skip.shape} must be {x.shape}, or (1, S, H) or (S, H) for a 3-D input")
    hidden = x.shape[-1]
    for name, param in {"gamma": gamma, **others}.items():
        if param is not None and param.shape != (hidden,):
            raise ValueError(f"{op}: {name} must have shape ({hidden},), got {param.shape}")
    wt = np.dtype(np.float64) if x.dtype == np.float64 else np.dtype(np.float32)
    total = x.astype(wt) + skip.astype(wt)
    bias = others.get("bias")
    if bias is not None:
        total = total + bias.astype(wt)
    return total, wt
