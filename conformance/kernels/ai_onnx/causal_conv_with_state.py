"""CausalConvWithState (27): depthwise causal 1-D convolution carrying the last k - 1 positions between calls.

The sequence seen is past_state (zeros without one) followed by the input; output position t is the weighted
sum of positions t .. t + k - 1 of that sequence (plus the bias, then SiLU when asked), and the present state
is its last k - 1 positions.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "CausalConvWithState", since=27)
def causal_conv_with_state(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None,
                           past_state: np.ndarray | None, *, activation: str) -> tuple[np.ndarray, ...]:
    n, c = x.shape[:2]
    k = weight.shape[2]
    past = np.zeros((n, c, k - 1)) if past_state is None else past_state.astype(np.float64)
    seq = np.concatenate([past, x.astype(np.float64)], axis=2)  # (n, c, k - 1 + length)
    windows = np.lib.stride_tricks.sliding_window_view(seq, k, axis=2)  # (n, c, length, k)
    y = np.einsum("nctj,cj->nct", windows, weight[:, 0, :].astype(np.float64))
    if bias is not None:
        y = y + bias.astype(np.float64)[None, :, None]
    if activation in ("silu", "swish"):
        y = y / (1.0 + np.exp(-y))
    present = seq[:, :, seq.shape[2] - (k - 1):]
    return y.astype(x.dtype), np.ascontiguousarray(present).astype(x.dtype)
