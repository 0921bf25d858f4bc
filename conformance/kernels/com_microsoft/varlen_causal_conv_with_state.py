"""com.microsoft VarlenCausalConvWithState: CausalConvWithState over a packed, token-major (total_tokens, channels)
batch; request i holds tokens [cumulative_sequence_length[i], cumulative_sequence_length[i + 1]) and row i of
initial_state, (channels, (k - 1) * dilation), so no tap crosses into another request.

Local token t of a request reads its sequence (carried state followed by its tokens) at
t + state_length - (k - 1 - j) * dilation for tap j; bias, then SiLU when asked. final_state is each request's
last state_length positions of that sequence. With state_update_capacity > 0, the first
clamp(capture_count[i], 0, min(capacity, length)) slots of request i's state_update are its first input tokens,
zeros after them. Computed in double and rounded once to the input type.

The dynamic grouped two-tap mode (kernel_delta with previous_mask) is CUDA-only and refused here.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "VarlenCausalConvWithState", since=1)
def varlen_causal_conv_with_state(x: np.ndarray, weight: np.ndarray, cumulative_sequence_length: np.ndarray,
                                  bias: np.ndarray | None, initial_state: np.ndarray,
                                  capture_count: np.ndarray | None, kernel_delta: np.ndarray | None,
                                  previous_mask: np.ndarray | None, *, activation: str, delta_offset: int,
                                  dilation: int, group_size: int,
                                  state_update_capacity: int) -> tuple[np.ndarray, ...]:
    op = "VarlenCausalConvWithState"
    if kernel_delta is not None or previous_mask is not None:
        raise ValueError(f"{op}: the dynamic grouped two-tap mode (kernel_delta, previous_mask) is CUDA-only and "
                         "not computed here")
    total, channels = x.shape
    k = weight.shape[-1]
    if weight.shape != (channels, 1, k) or (bias is not None and bias.shape != (channels,)):
        raise ValueError(f"{op}: weight {weight.shape} / bias must be (C, 1, k) / (C,) with C={channels}")
    cu = cumulative_sequence_length.astype(np.int64)
    batch, slen = cu.shape[0] - 1, (k - 1) * dilation
    if batch < 0 or cu[0] != 0 or cu[-1] != total or (np.diff(cu) < 1).any():
        raise ValueError(f"{op}: cumulative_sequence_length {cu.tolist()} must rise strictly from 0 to {total}")
    if initial_state.shape != (batch, channels, slen):
        raise ValueError(f"{op}: initial_state {initial_state.shape} must be {(batch, channels, slen)}")
    if (state_update_capacity > 0) != (capture_count is not None):
        raise ValueError(f"{op}: capture_count is given exactly when state_update_capacity is positive")
    taps = weight[:, 0, :].astype(np.float64)
    y = np.zeros((total, channels))
    final = np.zeros((batch, channels, slen))
    update = np.zeros((batch, state_update_capacity, channels))
    for i in range(batch):
        lo, hi = int(cu[i]), int(cu[i + 1])
        seq = np.concatenate([initial_state[i].astype(np.float64), x[lo:hi].astype(np.float64).T], axis=1)
        for j in range(k):
            start = slen - (k - 1 - j) * dilation
            y[lo:hi] += (seq[:, start:start + hi - lo] * taps[:, j:j + 1]).T
        final[i] = seq[:, seq.shape[1] - slen:]
        if capture_count is not None:
            rows = int(np.clip(capture_count[i], 0, min(state_update_capacity, hi - lo)))
            update[i, :rows] = x[lo:lo + rows]
    if bias is not None:
        y = y + bias.astype(np.float64)[None, :]
    if activation in ("silu", "swish"):
        y = y / (1.0 + np.exp(-y))
    return y.astype(x.dtype), final.astype(x.dtype), update.astype(x.dtype)
