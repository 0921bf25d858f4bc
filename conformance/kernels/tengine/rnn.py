"""RNN (tengine, op id 35): TensorFlow's basic RNN cell, h = tanh([x, h] @ kernel + bias), over a sequence."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "RNN", since=1)
def rnn(x: np.ndarray, kernel_weights: np.ndarray, bias: np.ndarray | None, init_h: np.ndarray | None, *, clip: float,
        output_len: int, sequence_len: int, input_size: int, hidden_size: int, has_clip: int, has_bias: int,
        has_init_state: int, activation: int) -> tuple[np.ndarray, ...]:
    # clip, has_clip, activation and sequence_len are not read by Tengine's kernel (tanh, no clipping).
    if x.ndim != 3 or x.shape[2] != input_size:
        raise ValueError(f"RNN: input must be [T, B, input_size={input_size}], got shape {x.shape}")
    steps, batch, _ = x.shape
    hid = hidden_size
    if kernel_weights.size != (input_size + hid) * hid:
        raise ValueError(f"RNN: kernel needs [{input_size + hid}, {hid}], got shape {kernel_weights.shape}")
    if not 1 <= output_len <= steps:
        raise ValueError(f"RNN: output_len {output_len} must be between 1 and the sequence length {steps}")
    work = np.promote_types(x.dtype, np.float32)
    k = kernel_weights.reshape(input_size + hid, hid).astype(work)
    b = np.zeros(hid, work) if bias is None else bias.reshape(hid).astype(work)
    h = np.zeros((batch, hid), work) if init_h is None else np.broadcast_to(init_h.reshape(hid).astype(work),
                                                                             (batch, hid))
    inputs = x.astype(work) @ k[:input_size] + b  # every step's input projection at once
    ys = []
    for t in range(steps):  # the recurrence is sequential by nature; each step is vectorised
        h = np.tanh(inputs[t] + h @ k[input_size:])
        ys.append(h)
    y = np.stack(ys[steps - output_len:])
    return (y.astype(x.dtype, copy=False),)
