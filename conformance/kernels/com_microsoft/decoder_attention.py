"""com.microsoft DecoderAttention: fairseq's decoder attention on sequence-first tensors, as onnxruntime's CUDA kernel
computes it (there is no CPU kernel).

query is (sequence, batch, hidden) and key (kv_sequence, batch, hidden). Q = query @ q_weight + bias[:hidden]; the
keys and values K, V = x @ kv_weight + bias[hidden:] are projected from query (self attention) or from key
(static_kv). With a cache in use (has_layer_state and use_past) self attention puts key_cache / value_cache before
the new K and V, and cross attention (static_kv) attends to the caches alone. Scores are Q K^T / sqrt(head_size);
with has_key_padding_mask, a key whose key_padding_mask entry is true takes no weight (-inf; mask_filter_value is
not read); softmax over the keys; output = weights V, heads merged, (sequence, batch, hidden). new_key_cache /
new_value_cache are the keys and values attended to (batch, heads, kv_length, head_size) (onnxruntime writes them
only with has_layer_state).
"""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.com_microsoft._attention import merge_heads, scores, softmax, split_heads
from conformance.kernels.registry import kernel

OP = "DecoderAttention"


def _flag(x: np.ndarray) -> bool:
    if x.size != 1:
        raise ValueError(f"{OP}: the flag inputs hold one value each, got shape {x.shape}")
    return bool(x.reshape(-1)[0])


@kernel("com.microsoft", OP, since=1)
def decoder_attention(query: np.ndarray, key: np.ndarray, q_weight: np.ndarray, kv_weight: np.ndarray,
                      bias: np.ndarray, key_padding_mask: np.ndarray | None, key_cache: np.ndarray | None,
                      value_cache: np.ndarray | None, static_kv: np.ndarray, use_past: np.ndarray,
                      has_layer_state: np.ndarray, has_key_padding_mask: np.ndarray, *,
                      mask_filter_value: float | None, num_heads: int) -> tuple[np.ndarray, ...]:
    if query.ndim != 3 or key.ndim != 3 or key.shape[1:] != query.shape[1:]:
        raise ValueError(f"{OP}: query (sequence, batch, hidden) and key (kv_sequence, batch, hidden) expected, got "
                         f"{query.shape} and {key.shape}")
    batch, hidden = query.shape[1:]
    if hidden % num_heads or q_weight.shape != (hidden, hidden) or kv_weight.shape != (hidden, 2 * hidden) \
            or bias.shape != (3 * hidden,):
        raise ValueError(f"{OP}: hidden {hidden} a multiple of num_heads, q_weight ({hidden}, {hidden}), kv_weight "
                         f"({hidden}, {2 * hidden}) and bias ({3 * hidden},) expected")
    head = hidden // num_heads
    cross, past, state = _flag(static_kv), _flag(use_past), _flag(has_layer_state)
    if past and cross and not state:
        raise ValueError(f"{OP}: cross attention with use_past reads the caches, which has_layer_state must provide")
    b = bias.astype(np.float64)

    def heads_of(x: np.ndarray) -> np.ndarray:  # (sequence, batch, width) -> (batch, heads, sequence, head_size)
        return split_heads(np.transpose(x, (1, 0, 2)), num_heads)

    q = heads_of(query.astype(np.float64) @ q_weight.astype(np.float64) + b[:hidden])

    def project(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        kv = x.astype(np.float64) @ kv_weight.astype(np.float64) + b[hidden:]
        return heads_of(kv[..., :hidden]), heads_of(kv[..., hidden:])

    def caches() -> tuple[np.ndarray, np.ndarray]:
        if key_cache is None or value_cache is None or key_cache.ndim != 4 \
                or key_cache.shape[:2] != (batch, num_heads) or key_cache.shape[3] != head \
                or value_cache.shape != key_cache.shape:
            raise ValueError(f"{OP}: a cache in use needs key_cache and value_cache ({batch}, {num_heads}, "
                             f"cache_sequence, {head})")
        return key_cache.astype(np.float64), value_cache.astype(np.float64)

    if past and cross:
        k, v = caches()
    elif past and state:
        ck, cv = caches()
        nk, nv = project(query)
        k, v = np.concatenate([ck, nk], axis=2), np.concatenate([cv, nv], axis=2)
    else:
        k, v = project(key if cross else query)
    s = scores(q, k, 1.0 / math.sqrt(head))
    if _flag(has_key_padding_mask):
        if key_padding_mask is None or key_padding_mask.shape != (batch, k.shape[2]):
            raise ValueError(f"{OP}: key_padding_mask must be ({batch}, {k.shape[2]}) with has_key_padding_mask")
        padded = key_padding_mask.astype(bool)
        if np.any(padded.all(axis=1)):
            raise ValueError(f"{OP}: a batch entry whose keys are all padded has no attention weights")
        s = np.where(padded[:, None, None, :], -np.inf, s)
    out = np.transpose(merge_heads(softmax(s) @ v), (1, 0, 2))
    dt = query.dtype
    return out.astype(dt), k.astype(dt), v.astype(dt)
