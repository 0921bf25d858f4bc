"""RotaryEmbedding (23): rotate pairs of the first `rot` features of each head by position-dependent angles.

The pairs are the two halves of the rotated part (interleaved = 0) or its even and odd features
(interleaved = 1); with position_ids the caches are looked up by position, else they are already
(batch, sequence, rot / 2). A 3-D X is (batch, sequence, heads * head_size); a 4-D X is
(batch, heads, sequence, head_size). Features past `rot` pass through.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "RotaryEmbedding", since=23)
def rotary_embedding(x: np.ndarray, cos_cache: np.ndarray, sin_cache: np.ndarray, position_ids: np.ndarray | None,
                     *, interleaved: int, num_heads: int | None, rotary_embedding_dim: int) -> tuple[np.ndarray, ...]:
    if x.ndim == 4:
        heads_last = np.moveaxis(x, 1, 2)  # (batch, sequence, heads, head_size)
    elif x.ndim == 3 and num_heads:
        heads_last = x.reshape(x.shape[0], x.shape[1], num_heads, x.shape[2] // num_heads)
    else:
        raise ValueError(f"RotaryEmbedding: X of shape {x.shape} needs rank 4, or rank 3 with num_heads")
    rot = rotary_embedding_dim or heads_last.shape[-1]
    if rot % 2 or rot > heads_last.shape[-1]:
        raise ValueError(f"RotaryEmbedding: cannot rotate {rot} features of heads of size {heads_last.shape[-1]}")
    cos, sin = (cos_cache, sin_cache) if position_ids is None else (cos_cache[position_ids], sin_cache[position_ids])
    cos, sin = cos[:, :, None, :], sin[:, :, None, :]  # one angle per (batch, position), shared by the heads
    part = heads_last[..., :rot]
    if interleaved:
        first, second = part[..., 0::2], part[..., 1::2]
    else:
        first, second = part[..., :rot // 2], part[..., rot // 2:]
    turned_first = first * cos - second * sin
    turned_second = first * sin + second * cos
    out = heads_last.copy()
    if interleaved:
        out[..., 0:rot:2], out[..., 1:rot:2] = turned_first, turned_second
    else:
        out[..., :rot // 2], out[..., rot // 2:rot] = turned_first, turned_second
    y = np.moveaxis(out, 2, 1) if x.ndim == 4 else out.reshape(x.shape)
    return (np.ascontiguousarray(y).astype(x.dtype, copy=False),)
