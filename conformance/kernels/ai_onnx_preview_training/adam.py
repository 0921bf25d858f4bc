"""Adam (ai.onnx.preview.training 1): one Adam step for n tensors, in the tensors' type; the bias-corrected
learning rate is computed in double from the scalars R and T."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_preview_training._optimizer import groups, scalar
from conformance.kernels.registry import kernel


@kernel("ai.onnx.preview.training", "Adam", since=1)
def adam(R: np.ndarray, T: np.ndarray, *inputs: np.ndarray, alpha: float, beta: float, epsilon: float,
         norm_coefficient: float, norm_coefficient_post: float) -> tuple[np.ndarray, ...]:
    xs, gs, vs, hs = groups("Adam", inputs, 4)
    r, steps = scalar("Adam", "R", R), scalar("Adam", "T", T)
    with np.errstate(divide="ignore", invalid="ignore"):  # alpha = 1: 1 - alpha**T is 0, the rate infinite
        r_adjusted = np.float64(r) * np.sqrt(1 - np.float64(beta)**steps) / (1 - np.float64(alpha)**steps) \
            if steps > 0 else np.float64(r)
    new_x, new_v, new_h = [], [], []
    for x, g, v, h in zip(xs, gs, vs, hs, strict=True):
        t = x.dtype.type
        g_reg = t(norm_coefficient) * x + g
        v_new = t(alpha) * v + t(1 - alpha) * g_reg
        h_new = t(beta) * h + t(1 - beta) * g_reg * g_reg
        with np.errstate(over="ignore", invalid="ignore"):
            x_new = x - t(r_adjusted) * v_new / (np.sqrt(h_new) + t(epsilon))
        new_x.append((t(1 - norm_coefficient_post) * x_new).astype(x.dtype))
        new_v.append(v_new.astype(v.dtype))
        new_h.append(h_new.astype(h.dtype))
    return (*new_x, *new_v, *new_h)
