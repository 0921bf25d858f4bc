"""com.microsoft DynamicQuantizeLSTM: ai.onnx LSTM whose two matmuls run on 8-bit weights with the float operand
quantized on the fly, as onnxruntime's CPU kernel computes them.

W is [num_directions, input_size, 4*hidden_size] and R [num_directions, hidden_size, 4*hidden_size] (the
transposes of LSTM's), quantized per direction (scale and zero point [num_directions]) or per output column
([num_directions, 4*hidden_size]). For each direction X @ W is one product over the steps up to the longest
sequence: those steps of X, every batch entry together, quantized to uint8 by their range (DynamicQuantizeMatMul's
rule), multiplied in int32, scaled by X's scale times W's. At every step H_{t-1} @ R is computed the same way, each
batch entry's previous hidden state quantized by its own range (onnxruntime groups entries by its thread count: the
op's reading r1). The rest (gates iofc, peepholes, clip, activations, sequence_lens, directions) is LSTM's.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._recurrent import (
    activation_functions,
    clipper,
    num_directions,
    per_direction,
    recur,
    state_input,
)
from conformance.kernels.com_microsoft.dynamic_quantize_mat_mul import dynamic_uint8
from conformance.kernels.registry import kernel

OP = "DynamicQuantizeLSTM"


def quantized_product(a: np.ndarray, w: np.ndarray, scale: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
    """a [M, K] quantized by its range, times the 8-bit w [K, N] minus its zero point, in int32, scaled back."""
    q, a_scale, a_zp = dynamic_uint8(a)
    acc = (q.astype(np.int64) - int(a_zp)) @ (w.astype(np.int64) - zero_point.astype(np.int64))
    return np.asarray(acc.astype(np.int32).astype(np.float32) * (np.float32(a_scale) * scale.astype(np.float32)),
                      np.float32)


def _parameter(name: str, value: np.ndarray, directions: int, columns: int) -> np.ndarray:
    """A scale or zero point as [num_directions, 1] (per direction) or [num_directions, 4*hidden] (per column)."""
    if value.shape == (directions,):
        return value.reshape(directions, 1)
    if value.shape == (directions, columns):
        return value
    raise ValueError(f"{OP}: {name} must be [{directions}] or [{directions}, {columns}], got {list(value.shape)}")


@kernel("com.microsoft", "DynamicQuantizeLSTM", since=1, requested_outputs=True)
def dynamic_quantize_lstm(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None,
                          sequence_lens: np.ndarray | None, initial_h: np.ndarray | None,
                          initial_c: np.ndarray | None, P: np.ndarray | None, W_scale: np.ndarray,
                          W_zero_point: np.ndarray, R_scale: np.ndarray, R_zero_point: np.ndarray, *,
                          activation_alpha: list[float] | None, activation_beta: list[float] | None,
                          activations: list[str], clip: float | None, direction: str, hidden_size: int,
                          input_forget: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    directions = num_directions(OP, direction)
    n = hidden_size
    if X.ndim != 3 or W.shape != (directions, X.shape[2], 4 * n) or R.shape != (directions, n, 4 * n):
        raise ValueError(f"{OP}: X [S, B, I], W [{directions}, I, {4 * n}] and R [{directions}, {n}, {4 * n}] do not "
                         f"fit: {list(X.shape)}, {list(W.shape)}, {list(R.shape)}")
    if B is not None and B.shape != (directions, 8 * n):
        raise ValueError(f"{OP}: B has shape {list(B.shape)}, expected {[directions, 8 * n]}")
    if P is not None and P.shape != (directions, 3 * n):
        raise ValueError(f"{OP}: P has shape {list(P.shape)}, expected {[directions, 3 * n]}")
    fgh = per_direction(OP, activation_functions(OP, activations, activation_alpha, activation_beta), 3, directions)
    w_scale, w_zp = (_parameter(k, v, directions, 4 * n) for k, v in (("W_scale", W_scale),
                                                                      ("W_zero_point", W_zero_point)))
    r_scale, r_zp = (_parameter(k, v, directions, 4 * n) for k, v in (("R_scale", R_scale),
                                                                      ("R_zero_point", R_zero_point)))
    steps, batch = X.shape[0], X.shape[1]
    x = X.astype(np.float32).reshape(steps * batch, X.shape[2])
    h0 = state_input(OP, "initial_h", initial_h, 0, directions, batch, n, np.dtype(np.float32))
    c0 = state_input(OP, "initial_c", initial_c, 0, directions, batch, n, np.dtype(np.float32))
    p = np.zeros((directions, 3 * n), np.float32) if P is None else P.astype(np.float32)
    bounded = clipper(clip)
    live = steps if sequence_lens is None or sequence_lens.size == 0 else int(np.max(sequence_lens))
    live = min(max(live, 0), steps)
    identity = np.eye(4 * n, dtype=np.float32)[None]
    outs: list[list[np.ndarray]] = []
    for d in range(directions):
        projected = np.zeros((steps * batch, 4 * n), np.float32)
        if live:  # X's range (its quantization) spans the steps up to the longest sequence only
            projected[:live * batch] = quantized_product(x[:live * batch], W[d], w_scale[d], w_zp[d])
        projected = projected.reshape(steps, batch, 4 * n)
        bias = None if B is None else B[d:d + 1].astype(np.float32)  # Wb then Rb, as LSTM's B

        def cell(_: int, xw: np.ndarray, states: list[np.ndarray], d: int = d) -> list[np.ndarray]:
            f, g, h = fgh[d]
            h_prev, c_prev = states
            gates = xw + np.concatenate([quantized_product(h_prev[b:b + 1], R[d], r_scale[d], r_zp[d])
                                         for b in range(h_prev.shape[0])])
            if B is not None:
                gates = gates + B[d, 4 * n:].astype(np.float32)
            pi, po, pf = p[d, :n], p[d, n:2 * n], p[d, 2 * n:]
            i = f(bounded(gates[:, :n] + pi * c_prev))
            forget = 1 - i if input_forget else f(bounded(gates[:, 2 * n:3 * n] + pf * c_prev))
            c = forget * c_prev + i * g(bounded(gates[:, 3 * n:]))
            o = f(bounded(gates[:, n:2 * n] + po * c))
            return [o * h(c), c]

        outs.append(recur(OP, projected, identity, bias, sequence_lens, [h0[d:d + 1], c0[d:d + 1]], layout=0,
                          direction="reverse" if d == 1 or direction == "reverse" else "forward", cell=cell))
    y, y_h, y_c = (np.concatenate([o[k] for o in outs], axis=1 if k == 0 else 0) for k in range(3))
    return (y, y_h, y_c)[:requested_outputs]
