"""FlexAttention: softmax(score_mod(Q·K^T · scale)) -> prob_mod -> · V over rank-4 inputs, grouped query heads.

The scores are computed exactly (float64) and rounded to the softmax precision (`softmax_precision`, else
float for non-double inputs and double for double); the modifier graphs, the softmax and the product with V
run in that precision; Y is rounded to the inputs' type. Query head h reads key/value head h // (Hq / Hkv).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.registry import kernel

_PRECISION = {1: np.float32, 10: np.float16, 11: np.float64, 16: np.float32}  # bfloat16 works in float32 here


def _softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - np.max(x, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / np.sum(e, axis=-1, keepdims=True))


@kernel("ai.onnx.preview", "FlexAttention", since=1)
def flex_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, *, prob_mod: Any, scale: float | None, score_mod: Any,
                   softmax_precision: int | None) -> tuple[np.ndarray, ...]:
    if softmax_precision is not None:
        work = np.dtype(_PRECISION[softmax_precision])
    else:
        work = np.dtype(np.float64 if Q.dtype == np.float64 else np.float32)
    heads, kv_heads, size = Q.shape[1], K.shape[1], Q.shape[-1]
    group = heads // kv_heads
    keys = np.repeat(K, group, axis=1)
    values = np.repeat(V, group, axis=1)
    factor = float(scale) if scale is not None else 1.0 / np.sqrt(size)
    scores = (Q.astype(np.float64) @ np.swapaxes(keys.astype(np.float64), -1, -2) * factor).astype(work)
    if score_mod is not None:
        scores = np.asarray(score_mod(scores)[0]).astype(work, copy=False)
    probs = _softmax(scores).astype(work, copy=False)
    if prob_mod is not None:
        probs = np.asarray(prob_mod(probs)[0]).astype(work, copy=False)
    return ((probs @ values.astype(work)).astype(Q.dtype),)
