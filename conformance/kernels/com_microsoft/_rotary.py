"""What onnxruntime's rotary ops (RotaryEmbedding, MRotaryEmbedding) share: the head split of a 3-D or 4-D input
and the rotation of feature pairs by per-token angles, in float32 (float16 inputs widen, one rounding at the end)."""

from __future__ import annotations

import numpy as np


def heads_last(op: str, x: np.ndarray, head_size: int) -> np.ndarray:
    """X as (batch, sequence, heads, head_size): a 4-D X is (batch, heads, sequence, head_size), a 3-D X
    (batch, sequence, heads * head_size)."""
    if x.ndim == 4:
        if x.shape[3] != head_size:
            raise ValueError(f"{op}: a 4-D input has heads of size {x.shape[3]}, the caches imply {head_size}")
        return np.moveaxis(x, 1, 2)
    if x.ndim == 3:
        if head_size <= 0 or x.shape[2] % head_size:
            raise ValueError(f"{op}: hidden size {x.shape[2]} is no multiple of the head size {head_size}")
        return x.reshape(x.shape[0], x.shape[1], x.shape[2] // head_size, head_size)
    raise ValueError(f"{op}: input of shape {x.shape} must be 3-D or 4-D")


def rotate(op: str, x: np.ndarray, heads: np.ndarray, cos: np.ndarray, sin: np.ndarray, rot: int,
           interleaved: int, scale: float = 1.0) -> np.ndarray:
    """Rotate the first `rot` features of each head of `heads` (batch, sequence, heads, head_size) by the angles
    whose cosines and sines `cos`, `sin` (batch, sequence, rot / 2) hold; the rest passes through. The pairs are
    the two halves of the rotated part, or its even and odd features (interleaved); the rotated features are
    multiplied by `scale`. Back in X's layout and type."""
    if rot % 2 or not 0 < rot <= heads.shape[-1]:
        raise ValueError(f"{op}: cannot rotate {rot} features of heads of size {heads.shape[-1]}")
    half = rot // 2
    c = cos.astype(np.float32)[:, :, None, :]
    s = sin.astype(np.float32)[:, :, None, :]
    out = heads.astype(np.float32)  # a copy: the features past rot pass through
    part = out[..., :rot]
    first, second = (part[..., 0::2], part[..., 1::2]) if interleaved else (part[..., :half], part[..., half:])
    turned_first = (first * c - second * s) * np.float32(scale)
    turned_second = (second * c + first * s) * np.float32(scale)
    if interleaved:
        out[..., 0:rot:2], out[..., 1:rot:2] = turned_first, turned_second
    else:
        out[..., :half], out[..., half:rot] = turned_first, turned_second
    y = np.moveaxis(out, 2, 1) if x.ndim == 4 else out.reshape(x.shape)
    return np.ascontiguousarray(y).astype(x.dtype)
