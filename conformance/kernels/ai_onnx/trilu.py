"""Trilu: the upper (on and above diagonal k) or lower (on and below it) triangle of the last two axes; the
other elements become zero (the empty string in a string tensor)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import zero_of
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Trilu", since=14)
def trilu(input: np.ndarray, k: np.ndarray | None, *, upper: int) -> tuple[np.ndarray, ...]:
    if input.ndim < 2:
        raise ValueError(f"Trilu: the input needs rank >= 2, it has shape {list(input.shape)}")
    if k is not None and k.size != 1:
        raise ValueError(f"Trilu: k must be a scalar, it has shape {list(k.shape)}")
    diagonal = 0 if k is None else int(k.reshape(-1)[0])
    rows, cols = input.shape[-2:]
    keep = (np.triu if upper else np.tril)(np.ones((rows, cols), dtype=bool), diagonal)
    return (np.where(keep, input, np.asarray(zero_of(input.dtype), dtype=input.dtype)),)
