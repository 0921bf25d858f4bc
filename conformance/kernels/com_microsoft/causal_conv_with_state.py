"""com.microsoft CausalConvWithState: depthwise causal 1-D convolution carrying the trailing positions between calls.

The sequence seen is the carried state (zeros without one) followed by the input along the sequence axis;
output position t is sum_j w[c, j] * seq[t + H - (k - 1 - j) * dilation], H = (k - 1) * dilation the receptive
history, plus the bias, then SiLU when asked. The present state is the last state_length positions of that
sequence (state_length 0 means H; a longer explicit state is read by its trailing H positions). channels_last
lays input and output out as (batch, sequence, d_1, ..., d_n) with channels = d_1 * ... * d_n, and the state as
(batch, state_length, channels...) unless state_channels_last overrides it. With state_window W > 0 the states
gain a leading window axis: past slot W - 1 is read, and present slot j is the state after position
L - W + j (zeros where that position is not in this call). state_update_capacity > 0 emits the first
min(L, capacity) input rows, zeros after them (an empty (batch, 0, channels) without a capacity).
Computed in double and rounded once to the input type.

ndim 2 and 3 and the input channel slice (input_channels, input_channel_offset) are CUDA-only extensions whose
non-causal padding and slice addressing onnxruntime's text leaves open; this kernel refuses them.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _to_channels_first(x: np.ndarray, last: bool, channels: int) -> np.ndarray:
    """(batch, channels, positions) from either layout."""
    if not last:
        return x
    return np.swapaxes(x.reshape(x.shape[0], x.shape[1], channels), 1, 2)


@kernel("com.microsoft", "CausalConvWithState", since=1)
def causal_conv_with_state(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None,
                           past_state: np.ndarray | None, *, activation: str, channels_last: int, dilation: int,
                           input_channel_offset: int, input_channels: int, ndim: int, state_channels_last: int,
                           state_length: int, state_update_capacity: int,
                           state_window: int) -> tuple[np.ndarray, ...]:
    if ndim != 1 or input_channels or input_channel_offset:
        raise ValueError("CausalConvWithState: ndim > 1 and the input channel slice are not computed here "
                         "(CUDA-only extensions without a stated meaning for the non-causal axes and the slice)")
    channels, k = weight.shape[0], weight.shape[-1]
    if weight.shape != (channels, 1, k) or (bias is not None and bias.shape != (channels,)):
        raise ValueError(f"CausalConvWithState: weight {weight.shape} / bias must be (C, 1, k) / (C,)")
    history = (k - 1) * dilation
    slen = state_length if state_length > 0 else history
    if slen < history:
        raise ValueError(f"CausalConvWithState: state_length {slen} is shorter than the receptive field {history}")
    last = channels_last == 1
    state_last = last if state_channels_last == -1 else state_channels_last == 1
    batch = x.shape[0]
    if (not last and x.shape[1] != channels) or (last and int(np.prod(x.shape[2:])) != channels):
        raise ValueError(f"CausalConvWithState: input {x.shape} does not hold {channels} channels")
    xs = _to_channels_first(x.astype(np.float64), last, channels)  # (batch, C, L)
    length = xs.shape[2]
    slot_shape = (batch, slen, *x.shape[2:]) if state_last and last else \
        ((batch, slen, channels) if state_last else (batch, channels, slen))
    if past_state is None:
        carried = np.zeros((batch, channels, slen))
    else:
        slot = past_state[-1] if state_window > 0 else past_state
        if slot.shape != slot_shape:
            raise ValueError(f"CausalConvWithState: past_state {past_state.shape} does not hold {slot_shape} states")
        carried = _to_channels_first(slot.astype(np.float64), state_last, channels)
    seq = np.concatenate([carried, xs], axis=2)  # (batch, C, slen + L)
    taps = weight[:, 0, :].astype(np.float64)
    y = np.zeros((batch, channels, length))
    for j in range(k):
        start = slen - (k - 1 - j) * dilation
        y += seq[:, :, start:start + length] * taps[None, :, j:j + 1]
    if bias is not None:
        y = y + bias.astype(np.float64)[None, :, None]
    if activation in ("silu", "swish"):
        y = y / (1.0 + np.exp(-y))

    def state_after(end: int) -> np.ndarray:
        """The state after the first `end` input positions, in the state layout."""
        s = seq[:, :, end:end + slen]
        if not state_last:
            return s
        return np.swapaxes(s, 1, 2).reshape(slot_shape)

    if state_window > 0:
        present = np.zeros((state_window, *slot_shape))
        for j in range(state_window):
            t = length - state_window + j  # slot j: the state after position t
            if t >= 0:
                present[j] = state_after(t + 1)
    else:
        present = state_after(length)
    y_out = np.swapaxes(y, 1, 2).reshape(x.shape) if last else y
    outs = [y_out.astype(x.dtype), np.ascontiguousarray(present).astype(x.dtype)]
    update = np.zeros((batch, state_update_capacity, channels))  # (batch, 0, channels) without a capacity
    rows = min(length, state_update_capacity)
    update[:, :rows] = np.swapaxes(xs[:, :, :rows], 1, 2)
    outs.append(update.astype(x.dtype))
    return tuple(outs)
