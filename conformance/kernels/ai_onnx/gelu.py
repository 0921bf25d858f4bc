"""Gelu: 0.5 * x * (1 + erf(x / sqrt(2))); with approximate='tanh' the estimate
0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel
from conformance.kernels.tengine.gelu import erf

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@kernel("ai.onnx", "Gelu", since=20)
def gelu(x: np.ndarray, *, approximate: str) -> tuple[np.ndarray, ...]:
    xw = x.astype(np.float64)  # erf is computed in double; every float width rounds once at the end
    if approximate == "tanh":
        y = 0.5 * xw * (1.0 + np.tanh(_SQRT_2_OVER_PI * (xw + 0.044715 * xw * xw * xw)))
    elif approximate == "none":
        y = 0.5 * xw * (1.0 + erf(xw / math.sqrt(2.0)))
    else:
        raise ValueError(f"Gelu: approximate must be 'none' or 'tanh', not {approximate!r}")
    return (y.astype(x.dtype),)
