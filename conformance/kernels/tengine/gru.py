"""GRU (tengine, op id 48): one forward GRU layer over [seq, batch, input] in ONNX's weight layout.

Gates z, r, h as ONNX (W [1, 3H, I], R [1, 3H, H], B [1, 6H] = Wb then Rb). Tengine's reference
kernel applies the reset gate to R_h · h only, with R_h's bias outside:
`h~ = tanh(W_h x + Wb_h + r * (R_h h) + Rb_h)`; the state starts at zero (initial_h is not read).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-v)))


@kernel("tengine", "GRU", since=1)
def gru(x: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray | None, sequence_lens: np.ndarray | None,
        initial_h: np.ndarray | None, *, clip: float, output_len: int, sequence_len: int, input_size: int,
        hidden_size: int, has_clip: int, has_gate_bias: int, has_candidate_bias: int, has_init_state: int,
        mxnet_flag: int) -> tuple[np.ndarray, ...]:
    # The size fields repeat the tensors' dims and the has_* flags describe the inputs; Tengine computes from
    # the tensors, ignores clip, sequence_lens and initial_h, and so do we.
    if x.ndim != 3 or w.ndim != 3 or r.ndim != 3 or w.shape[0] != 1:
        raise ValueError(f"GRU: X {x.shape}, W {w.shape}, R {r.shape}: one direction, rank 3 each")
    hidden = r.shape[2]
    if w.shape[1:] != (3 * hidden, x.shape[2]) or r.shape[1:] != (3 * hidden, hidden):
        raise ValueError(f"GRU: W {w.shape} and R {r.shape} do not fit X {x.shape} and hidden size {hidden}")
    work = np.promote_types(x.dtype, np.float32)
    wz, wr, wh = np.split(w[0].astype(work, copy=False), 3)
    rz, rr, rh = np.split(r[0].astype(work, copy=False), 3)
    bias = np.zeros(6 * hidden, work) if b is None else b.reshape(6 * hidden).astype(work, copy=False)
    wbz, wbr, wbh, rbz, rbr, rbh = np.split(bias, 6)
    h = np.zeros((x.shape[1], hidden), work)
    steps = []
    for xt in x.astype(work, copy=False):  # the recurrence is sequential in time
        z = _sigmoid(xt @ wz.T + wbz + h @ rz.T + rbz)
        reset = _sigmoid(xt @ wr.T + wbr + h @ rr.T + rbr)
        candidate = np.tanh(xt @ wh.T + wbh + reset * (h @ rh.T) + rbh)
        h = (1 - z) * candidate + z * h
        steps.append(h)
    y = np.stack(steps)[:, None]  # [seq, num_directions = 1, batch, hidden]
    return (y.astype(x.dtype, copy=False),)
