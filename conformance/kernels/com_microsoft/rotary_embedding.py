"""com.microsoft RotaryEmbedding: rotary position embedding with (max_position, rot / 2) caches looked up by
position_ids, either one base position (token s at base + s) or one per (batch, sequence) token.

As onnxruntime's CPU kernel computes it: the head size is twice the cache width unless rotary_embedding_dim is
given (then hidden / num_heads); `scale` and `is_packed_batching` change nothing on the CPU."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._rotary import heads_last, rotate
from conformance.kernels.registry import kernel

OP = "RotaryEmbedding"


def positions(op: str, position_ids: np.ndarray, batch: int, seq: int, rows: int) -> np.ndarray:
    """(batch, sequence) cache rows: base + s for a one-element position_ids, else position_ids itself."""
    if position_ids.size == 1 and position_ids.ndim <= 1:
        base = int(position_ids.reshape(-1)[0])
        p = np.broadcast_to(base + np.arange(seq, dtype=np.int64), (batch, seq))
    elif position_ids.shape == (batch, seq):
        p = position_ids.astype(np.int64)
    else:
        raise ValueError(f"{op}: position_ids {position_ids.shape} must hold one value or be ({batch}, {seq})")
    if p.size and (p.min() < 0 or p.max() >= rows):
        raise ValueError(f"{op}: position ids must lie in [0, {rows}), got [{p.min()}, {p.max()}]")
    return p


@kernel("com.microsoft", "RotaryEmbedding", since=1)
def rotary_embedding(x: np.ndarray, position_ids: np.ndarray, cos_cache: np.ndarray, sin_cache: np.ndarray, *,
                     interleaved: int, is_packed_batching: int, num_heads: int, rotary_embedding_dim: int,
                     scale: float) -> tuple[np.ndarray, ...]:
    del is_packed_batching, scale  # no effect on the values (see the module doc)
    if cos_cache.ndim != 2 or cos_cache.shape != sin_cache.shape:
        raise ValueError(f"{OP}: cos_cache {cos_cache.shape} and sin_cache {sin_cache.shape} must share one 2-D shape")
    if rotary_embedding_dim > 0 and num_heads <= 0:
        raise ValueError(f"{OP}: rotary_embedding_dim needs num_heads")
    hidden = x.shape[1] * x.shape[3] if x.ndim == 4 else x.shape[-1]
    if rotary_embedding_dim > 0:
        if hidden % num_heads:
            raise ValueError(f"{OP}: hidden size {hidden} is no multiple of num_heads {num_heads}")
        head = hidden // num_heads
    else:
        head = 2 * cos_cache.shape[1]
        if x.ndim == 3 and num_heads > 0 and num_heads * head != hidden:
            raise ValueError(f"{OP}: {num_heads} heads of size {head} do not make the hidden size {hidden}")
    heads = heads_last(OP, x, head)
    rot = rotary_embedding_dim or head
    if cos_cache.shape[1] != rot // 2:
        raise ValueError(f"{OP}: the caches must be {rot // 2} wide (rot / 2), got {cos_cache.shape[1]}")
    p = positions(OP, position_ids, heads.shape[0], heads.shape[1], cos_cache.shape[0])
    return (rotate(OP, x, heads, cos_cache[p], sin_cache[p], rot, interleaved),)
