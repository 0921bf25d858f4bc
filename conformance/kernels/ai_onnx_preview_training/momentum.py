"""Momentum (ai.onnx.preview.training 1): one step of SGD with standard or Nesterov momentum for n tensors."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_preview_training._optimizer import groups, scalar
from conformance.kernels.registry import kernel


@kernel("ai.onnx.preview.training", "Momentum", since=1)
def momentum(R: np.ndarray, T: np.ndarray, *inputs: np.ndarray, alpha: float, beta: float, mode: str,
             norm_coefficient: float) -> tuple[np.ndarray, ...]:
    if mode not in ("standard", "nesterov"):
        raise ValueError(f"Momentum: mode must be standard or nesterov, got {mode!r}")
    xs, gs, vs = groups("Momentum", inputs, 3)
    r = scalar("Momentum", "R", R)
    beta_adjusted = beta if scalar("Momentum", "T", T) > 0 else 1.0
    new_x, new_v = [], []
    for x, g, v in zip(xs, gs, vs, strict=True):
        t = x.dtype.type
        g_reg = t(norm_coefficient) * x + g
        v_new = t(alpha) * v + t(beta_adjusted) * g_reg
        step = g_reg + t(alpha) * v_new if mode == "nesterov" else v_new
        new_x.append((x - t(r) * step).astype(x.dtype))
        new_v.append(v_new.astype(v.dtype))
    return (*new_x, *new_v)
