"""What MoE and QMoE share: top-k routing over softmax probabilities, the expert activations, the expert FFN.

Routing (onnxruntime's CPU kernels): softmax over each token's router row in float32, the k largest
probabilities with ties going to the higher expert index, optionally renormalised to sum to one; with
router_weights (QMoE) the selection still reads router_probs and the mixing weights are router_weights at the
selected experts. Expert e computes act(x W1[e]^T + b1[e]) W2[e]^T + b2[e] in float32 (float16 and bfloat16
inputs are computed in float32 and rounded once), and the token's output is the weighted sum over its experts.
"""

from __future__ import annotations

import numpy as np


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * x))
    return out


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))
    return out


def routing_weights(op: str, probs: np.ndarray, weights: np.ndarray | None, k: int,
                    normalize: int) -> np.ndarray:
    """(tokens, experts) mixing weights: zero except at each token's top-k experts."""
    tokens, experts = probs.shape
    if not 1 <= k <= experts:
        raise ValueError(f"{op}: k={k} must lie in [1, num_experts={experts}]")
    logits = probs.astype(np.float32)
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    soft = (shifted / shifted.sum(axis=1, keepdims=True)).astype(np.float32)
    index = np.broadcast_to(np.arange(experts), soft.shape)
    # descending by probability, ties to the higher expert index
    order = np.lexsort((-index, -soft), axis=1)[:, :k]
    source = soft if weights is None else weights.astype(np.float32)
    picked = np.take_along_axis(source, order, axis=1)
    if normalize:
        picked = picked / picked.sum(axis=1, keepdims=True)
    mix = np.zeros((tokens, experts), dtype=np.float64)
    np.put_along_axis(mix, order, picked.astype(np.float64), axis=1)
    return mix


def activate(op: str, h: np.ndarray, up: np.ndarray | None, *, activation_type: str, swiglu_fusion: int,
             alpha: float, beta: float, limit: float | None, limit_after: int) -> np.ndarray:
    """The activated hidden rows from FC1's rows h (and FC3's rows `up` when given)."""
    if activation_type in ("swiglu", "geglu"):
        if up is not None:
            gate = h
        elif swiglu_fusion == 1:
            gate, up = h[..., 0::2], h[..., 1::2]
        elif swiglu_fusion == 2:
            half = h.shape[-1] // 2
            gate, up = h[..., :half], h[..., half:]
        else:
            raise ValueError(f"{op}: {activation_type} needs fused FC1 weights (swiglu_fusion 1 or 2) or FC3 weights")
        if activation_type == "geglu":
            out: np.ndarray = _gelu_tanh(gate) * up
            return out
        if limit is not None and not limit_after:
            gate, up = np.minimum(gate, limit), np.clip(up, -limit, limit)
        glu = gate * _sigmoid(alpha * gate)
        if limit is not None and limit_after:
            glu, up = np.minimum(glu, limit), np.clip(up, -limit, limit)
        out = glu * (up + beta)
        return out
    if activation_type == "relu":
        a = np.maximum(h, 0.0)
    elif activation_type == "relu2":
        a = np.square(np.maximum(h, 0.0))
    elif activation_type == "gelu":
        a = _gelu_tanh(h)
    elif activation_type == "silu":
        a = h * _sigmoid(h)
    elif activation_type == "identity":
        a = h
    else:
        raise ValueError(f"{op}: unknown activation_type {activation_type!r}")
    gated: np.ndarray = a if up is None else a * up
    return gated


def mixture(op: str, x: np.ndarray, mix: np.ndarray, w1: np.ndarray, b1: np.ndarray | None, w2: np.ndarray,
            b2: np.ndarray | None, w3: np.ndarray | None, b3: np.ndarray | None, **act: object) -> np.ndarray:
    """sum_e mix[:, e] * FFN_e(x) over the experts some token selected; x (tokens, hidden), weights (E, N, K)."""
    out = np.zeros((x.shape[0], w2.shape[1]), dtype=np.float64)
    for e in np.flatnonzero((mix != 0).any(axis=0)):
        rows = np.flatnonzero(mix[:, e] != 0)
        xe = x[rows]
        h = xe @ w1[e].T + (0.0 if b1 is None else b1[e])
        up = None if w3 is None else xe @ w3[e].T + (0.0 if b3 is None else b3[e])
        a = activate(op, h, up, **act)  # type: ignore[arg-type]
        y = a @ w2[e].T + (0.0 if b2 is None else b2[e])
        out[rows] += mix[rows, e:e + 1] * y
    return out


def check_layout(op: str, x: np.ndarray, probs: np.ndarray, experts: int, hidden: int) -> np.ndarray:
    """x as (tokens, hidden) rows; raises on an input that is not 2-D/3-D or a router with the wrong row count."""
    if x.ndim not in (2, 3):
        raise ValueError(f"{op}: input must be 2-D or 3-D, got shape {x.shape}")
    rows = x.reshape(-1, x.shape[-1])
    if probs.shape != (rows.shape[0], experts):
        raise ValueError(f"{op}: router_probs {probs.shape} must be (tokens={rows.shape[0]}, experts={experts})")
    if x.shape[-1] != hidden:
        raise ValueError(f"{op}: input hidden size {x.shape[-1]} differs from the experts' {hidden}")
    return rows
