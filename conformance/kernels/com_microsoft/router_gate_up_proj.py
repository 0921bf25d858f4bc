"""com.microsoft RouterGateUpProj: the first projection of a MoE layer with a shared expert, Y = X W rounded to T
(accumulated in double here), split into the router logits Y[..., :router_size] and the shared expert's gate and up
halves (gate first); activated = SwiGLU(gate, up) on the T-rounded halves: G = min(gate, limit), L = clip(up,
-limit, limit) (no clamp when limit <= 0), G * sigmoid(activation_alpha * G) * (L + activation_beta), computed in
double and rounded once to T. onnxruntime computes it on CUDA only; it equals MatMul, Split and com.microsoft
SwiGLU."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "RouterGateUpProj", since=1)
def router_gate_up_proj(x: np.ndarray, w: np.ndarray, *, activation: str, activation_alpha: float,
                        activation_beta: float, limit: float, router_size: int) -> tuple[np.ndarray, ...]:
    op = "RouterGateUpProj"
    if activation != "swiglu":
        raise ValueError(f"{op}: unknown activation {activation!r}")
    if w.ndim != 2 or x.shape[-1] != w.shape[0]:
        raise ValueError(f"{op}: X {x.shape} and W {w.shape} do not multiply")
    n = w.shape[1]
    if (n - router_size) <= 0 or (n - router_size) % 2:
        raise ValueError(f"{op}: W's {n} columns are not router_size={router_size} + 2 * inter")
    inter = (n - router_size) // 2
    y = (x.astype(np.float64) @ w.astype(np.float64)).astype(x.dtype).astype(np.float64)
    gate, up = y[..., router_size:router_size + inter], y[..., router_size + inter:]
    if limit > 0:
        gate, up = np.minimum(gate, limit), np.clip(up, -limit, limit)
    act = gate * (0.5 * (1.0 + np.tanh(0.5 * activation_alpha * gate))) * (up + activation_beta)
    return y[..., :router_size].astype(x.dtype), act.astype(x.dtype)
