"""com.microsoft MRotaryEmbedding: multimodal rotary embedding (M-RoPE). Each token has three positions (temporal,
height, width: position_ids is (3, batch, sequence)); each half-rotary feature f takes its angle from the cache row
of one of them, chosen by mrope_section and mrope_layout; then the rotation of RotaryEmbedding.

Layout 0 gives the first section[0] features T, the next section[1] H, the last section[2] W. Layout 1 starts from
T everywhere, then gives H to the features f = 1 (mod 3) below 3 * section[1] and W to the features f = 2 (mod 3)
below 3 * section[2]. A 3-D input needs num_heads (head size hidden / num_heads). As onnxruntime's CPU kernel
computes it, the rotated features are multiplied by `scale` (the features past rot are not); `is_packed_batching`
changes nothing."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._rotary import heads_last, rotate
from conformance.kernels.registry import kernel

OP = "MRotaryEmbedding"


def stream_of_feature(section: list[int], layout: int, half: int) -> np.ndarray:
    """For each of the `half` features, the position stream (0 T, 1 H, 2 W) its angle comes from."""
    if len(section) != 3 or min(section) < 0 or sum(section) != half:
        raise ValueError(f"{OP}: mrope_section {section} must be 3 non-negative sizes summing to {half}")
    if layout == 0:
        return np.repeat(np.arange(3), section)
    if layout != 1:
        raise ValueError(f"{OP}: mrope_layout must be 0 or 1, got {layout}")
    f = np.arange(half)
    stream = np.zeros(half, np.int64)
    stream[(f % 3 == 1) & (f < 3 * section[1])] = 1
    stream[(f % 3 == 2) & (f < 3 * section[2])] = 2
    return stream


@kernel("com.microsoft", "MRotaryEmbedding", since=1)
def m_rotary_embedding(x: np.ndarray, position_ids: np.ndarray, cos_cache: np.ndarray, sin_cache: np.ndarray, *,
                       interleaved: int, is_packed_batching: int, mrope_layout: int, mrope_section: list[int],
                       num_heads: int, rotary_embedding_dim: int, scale: float) -> tuple[np.ndarray, ...]:
    del is_packed_batching  # no effect on the values (see the module doc)
    if cos_cache.ndim != 2 or cos_cache.shape != sin_cache.shape:
        raise ValueError(f"{OP}: cos_cache {cos_cache.shape} and sin_cache {sin_cache.shape} must share one 2-D shape")
    if x.ndim == 4:
        head = x.shape[3]
    elif x.ndim == 3 and num_heads > 0 and x.shape[2] % num_heads == 0:
        head = x.shape[2] // num_heads
    else:
        raise ValueError(f"{OP}: input {x.shape} must be 4-D, or 3-D with num_heads dividing its hidden size")
    heads = heads_last(OP, x, head)
    rot = rotary_embedding_dim or head
    half = rot // 2
    if cos_cache.shape[1] != half:
        raise ValueError(f"{OP}: the caches must be {half} wide (rot / 2), got {cos_cache.shape[1]}")
    batch, seq = heads.shape[0], heads.shape[1]
    if position_ids.shape != (3, batch, seq):
        raise ValueError(f"{OP}: position_ids {position_ids.shape} must be (3, {batch}, {seq})")
    if position_ids.size and (position_ids.min() < 0 or position_ids.max() >= cos_cache.shape[0]):
        raise ValueError(f"{OP}: position ids must lie in [0, {cos_cache.shape[0]})")
    stream = stream_of_feature(list(mrope_section), mrope_layout, half)
    f = np.arange(half)
    rows = position_ids.astype(np.int64)[stream]  # (half, batch, seq): the row each feature reads
    cos = np.moveaxis(cos_cache[rows, f[:, None, None]], 0, -1)  # (batch, seq, half)
    sin = np.moveaxis(sin_cache[rows, f[:, None, None]], 0, -1)
    return (rotate(OP, x, heads, cos, sin, rot, interleaved, scale),)
