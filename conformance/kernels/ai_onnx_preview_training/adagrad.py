"""Adagrad (ai.onnx.preview.training 1): one ADAGRAD step for n tensors, in the tensors' type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_preview_training._optimizer import groups, scalar
from conformance.kernels.registry import kernel


@kernel("ai.onnx.preview.training", "Adagrad", since=1)
def adagrad(R: np.ndarray, T: np.ndarray, *inputs: np.ndarray, decay_factor: float, epsilon: float,
            norm_coefficient: float) -> tuple[np.ndarray, ...]:
    xs, gs, hs = groups("Adagrad", inputs, 3)
    r = scalar("Adagrad", "R", R) / (1 + scalar("Adagrad", "T", T) * decay_factor)
    new_x, new_h = [], []
    for x, g, h in zip(xs, gs, hs, strict=True):
        t = x.dtype.type
        g_reg = t(norm_coefficient) * x + g
        h_new = h + g_reg * g_reg
        new_x.append((x - t(r) * g_reg / (np.sqrt(h_new) + t(epsilon))).astype(x.dtype))
        new_h.append(h_new.astype(h.dtype))
    return (*new_x, *new_h)
