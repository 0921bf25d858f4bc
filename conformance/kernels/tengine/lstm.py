"""LSTM (tengine, op id 34): one forward LSTM layer with ONNX's weight layout and gate order (i, o, f, c)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _sigmoid(v: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(1 / (1 + np.exp(-v)))


def _state(value: np.ndarray | None, batch: int, hidden: int, work: np.dtype) -> np.ndarray:
    if value is None:
        return np.zeros((batch, hidden), work)
    if value.size != batch * hidden:
        raise ValueError(f"LSTM: an initial state needs {batch} x {hidden} values, got shape {value.shape}")
    return value.reshape(batch, hidden).astype(work)


@kernel("tengine", "LSTM", since=1)
def lstm(x: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray | None, sequence_lens: np.ndarray | None,
         initial_h: np.ndarray | None, initial_c: np.ndarray | None, p: np.ndarray | None, *, forget_bias: float,
         clip: float, output_len: int, sequence_len: int, input_size: int, hidden_size: int, cell_size: int,
         has_peephole: int, has_projection: int, has_clip: int, has_bias: int, has_init_state: int, forget_act: int,
         input_act: int, output_act: int, cellin_act: int, cellout_act: int, mxnet_flag: int) -> tuple[np.ndarray, ...]:
    # Only hidden_size and mxnet_flag reach Tengine's computation; the other fields describe the source model.
    if x.ndim != 3:
        raise ValueError(f"LSTM: input must be [T, B, I], got shape {x.shape}")
    steps, batch, size = x.shape
    hid = hidden_size
    if w.size != 4 * hid * size or r.size != 4 * hid * hid:
        raise ValueError(f"LSTM: W {w.shape} needs [1, {4 * hid}, {size}] and R {r.shape} [1, {4 * hid}, {hid}]")
    work = np.promote_types(x.dtype, np.float32)
    wm = w.reshape(4 * hid, size).astype(work)
    rm = r.reshape(4 * hid, hid).astype(work)
    bias = np.zeros(4 * hid, work)
    if b is not None:
        if b.size != 8 * hid:
            raise ValueError(f"LSTM: B needs [1, {8 * hid}] values, got shape {b.shape}")
        flat = b.reshape(8 * hid).astype(work)
        bias = flat[:4 * hid] + flat[4 * hid:]
    peep = np.zeros(3 * hid, work) if p is None else p.reshape(3 * hid).astype(work)
    h = _state(initial_h, batch, hid, work)
    c = _state(initial_c, batch, hid, work)
    inputs = x.astype(work) @ wm.T + bias  # [T, B, 4H]: every step's input projection at once
    ys = []
    for t in range(steps):  # the recurrence is sequential by nature; each step is vectorised
        gates = inputs[t] + h @ rm.T
        gi, go, gf, gc = np.split(gates, 4, axis=1)
        i = _sigmoid(gi + peep[:hid] * c)
        f = _sigmoid(gf + peep[2 * hid:] * c)
        c = f * c + i * np.tanh(gc)
        o = _sigmoid(go + peep[hid:2 * hid] * c)
        h = o * np.tanh(c)
        ys.append(h)
    y = np.stack(ys)  # [T, B, H]
    y = y[:, None] if mxnet_flag == 0 else y
    return (y.astype(x.dtype, copy=False),)
