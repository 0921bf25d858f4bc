"""com.microsoft AttnLSTM: an LSTM whose cell is wrapped in Bahdanau attention over a memory M.

Per direction d and time step t (the order and `sequence_lens` handling of ai.onnx LSTM; gates in the order i, o,
f, c as onnx's LSTM; P holds the peepholes i, o, f):
- the cell input is [X_t, A_{t-1}], A_0 = 0; W is [D, 4H, input_size + attention_size], so its last
  attention_size columns read A;
- i = f(Xi + Pi . C), f = f(Xf + Pf . C) (1 - i when input_forget), c = g(Xc), C' = f . C + i . c,
  o = f(Xo + Po . C'), H' = o . h(C'), each gate input X* = [X_t, A] W*^T + H R*^T + Wb* + Rb*; clip bounds the
  gate inputs (after the peephole term) to [-clip, clip], never C' (onnxruntime clips nothing before h);
- attention: keys = M MW[d] ([batch, max_memory_step, am_attn_size]); scores_s = V[d] . tanh(keys_s + H' QW[d])
  for the memory steps s < memory_seq_lens[b] (all when absent), align = softmax of those scores (exp without max
  subtraction and a float64 sum, as onnxruntime computes it; uniform where the sum is 0), 0 elsewhere;
  context = align M; A = [H', context] AW[d] when AW is given, else context.
Y holds H' per step (zeros after a sequence's end), Y_h and Y_c the states after each sequence's last step.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._recurrent import activation_functions, clipper, num_directions, per_direction
from conformance.kernels.registry import kernel


def _check(name: str, x: np.ndarray | None, shape: tuple[int, ...]) -> None:
    if x is not None and x.shape != shape:
        raise ValueError(f"AttnLSTM: {name} has shape {list(x.shape)}, expected {list(shape)}")


@kernel("com.microsoft", "AttnLSTM", since=1)
def attn_lstm(x: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray | None, sequence_lens: np.ndarray | None,
              initial_h: np.ndarray | None, initial_c: np.ndarray | None, p: np.ndarray | None,
              qw: np.ndarray | None, mw: np.ndarray | None, v: np.ndarray | None, m: np.ndarray | None,
              memory_seq_lens: np.ndarray | None, aw: np.ndarray | None, *,
              activation_alpha: list[float] | None, activation_beta: list[float] | None,
              activations: list[str] | None, clip: float | None, direction: str, hidden_size: int | None,
              input_forget: int) -> tuple[np.ndarray, ...]:
    if qw is None or mw is None or v is None or m is None:
        raise ValueError("AttnLSTM: the attention inputs QW, MW, V and M are required")
    if x.ndim != 3 or m.ndim != 3 or mw.ndim != 3:
        raise ValueError(f"AttnLSTM: X, M and MW must be 3-D, got {x.shape}, {m.shape}, {mw.shape}")
    dirs = num_directions("AttnLSTM", direction)
    steps, batch, size = x.shape
    hidden = int(hidden_size) if hidden_size is not None else r.shape[-1]
    _, mem_steps, depth = m.shape
    attn = mw.shape[2]
    layer = aw.shape[2] if aw is not None else depth
    _check("M", m, (batch, mem_steps, depth))
    _check("MW", mw, (dirs, depth, attn))
    _check("QW", qw, (dirs, hidden, attn))
    _check("V", v, (dirs, attn))
    _check("AW", aw, (dirs, depth + hidden, layer))
    _check("W", w, (dirs, 4 * hidden, size + layer))
    _check("R", r, (dirs, 4 * hidden, hidden))
    _check("B", b, (dirs, 8 * hidden))
    _check("P", p, (dirs, 3 * hidden))
    _check("initial_h", initial_h, (dirs, batch, hidden))
    _check("initial_c", initial_c, (dirs, batch, hidden))
    lengths = np.full(batch, steps, np.int64) if sequence_lens is None else sequence_lens.astype(np.int64)
    _check("sequence_lens", lengths, (batch,))
    if np.any((lengths <= 0) | (lengths > steps)):
        raise ValueError(f"AttnLSTM: sequence_lens {lengths.tolist()} must lie in [1, {steps}]")
    mem_len = np.full(batch, mem_steps, np.int64) if memory_seq_lens is None else memory_seq_lens.astype(np.int64)
    _check("memory_seq_lens", mem_len, (batch,))
    if np.any((mem_len <= 0) | (mem_len > mem_steps)):
        raise ValueError(f"AttnLSTM: memory_seq_lens {mem_len.tolist()} must lie in [1, {mem_steps}]")
    names = list(activations) if activations is not None else ["Sigmoid", "Tanh", "Tanh"] * dirs
    funcs = per_direction("AttnLSTM", activation_functions("AttnLSTM", names, activation_alpha, activation_beta),
                          3, dirs)
    bound = clipper(clip)
    dt = x.dtype
    mem = m.astype(dt)
    mem_mask = np.arange(mem_steps)[None, :] < mem_len[:, None]
    rows = np.arange(batch)
    y = np.zeros((steps, dirs, batch, hidden), dtype=dt)
    y_h = np.zeros((dirs, batch, hidden), dtype=dt)
    y_c = np.zeros((dirs, batch, hidden), dtype=dt)
    for d in range(dirs):
        f, g, h = funcs[d]
        wd, rd = w[d].astype(dt), r[d].astype(dt)
        bias = np.zeros(4 * hidden, dt) if b is None else (b[d, :4 * hidden] + b[d, 4 * hidden:]).astype(dt)
        pi, po, pf = (np.zeros(hidden, dt),) * 3 if p is None else np.split(p[d].astype(dt), 3)
        keys = mem @ mw[d].astype(dt)  # [batch, mem_steps, attn]
        state_h = np.zeros((batch, hidden), dt) if initial_h is None else initial_h[d].astype(dt)
        state_c = np.zeros((batch, hidden), dt) if initial_c is None else initial_c[d].astype(dt)
        a = np.zeros((batch, layer), dt)
        backward = direction == "reverse" or d == 1
        for k in range(int(lengths.max())):
            live = k < lengths
            t = np.where(backward, lengths - 1 - k, k).clip(0, steps - 1)
            gates = np.concatenate([x[t, rows].astype(dt), a], axis=1) @ wd.T + state_h @ rd.T + bias
            xi, xo, xf, xc = np.split(gates, 4, axis=1)
            i_gate = f(bound(xi + pi * state_c))
            f_gate = (1 - i_gate) if input_forget else f(bound(xf + pf * state_c))
            c_new = f_gate * state_c + i_gate * g(bound(xc))
            o_gate = f(bound(xo + po * c_new))
            h_new = o_gate * h(c_new)
            state_c = np.where(live[:, None], c_new, state_c)
            state_h = np.where(live[:, None], h_new, state_h)
            out = np.where(live[:, None], h_new, 0).astype(dt)
            y[t[live], d, rows[live]] = out[live]
            # Bahdanau attention on this step's output
            query = out @ qw[d].astype(dt)
            with np.errstate(over="ignore"):
                scores = np.tanh(keys + query[:, None, :]) @ v[d].astype(dt)  # [batch, mem_steps]
                e = np.where(mem_mask, np.exp(scores), 0).astype(dt)
            total = e.astype(np.float64).sum(axis=1, keepdims=True)
            safe = np.where(total == 0, 1.0, total)
            align = np.where(total == 0, np.where(mem_mask, 1.0 / mem_len[:, None], 0.0), e / safe).astype(dt)
            context = np.einsum("bs,bsk->bk", align, mem)
            a = (np.concatenate([out, context], axis=1) @ aw[d].astype(dt)) if aw is not None else context
        y_h[d], y_c[d] = state_h, state_c
    return y, y_h, y_c
