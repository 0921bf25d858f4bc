"""LSTM: input, output, forget and cell gates (W, R, B in that order: iofc), peepholes P (iof), per step.

Without P the peephole terms are absent (not zero times the cell state, which is NaN for an infinite state).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._recurrent import (
    activation_functions,
    check_weights,
    clipper,
    num_directions,
    per_direction,
    recur,
    state_input,
    transposed,
    work_type,
)
from conformance.kernels.registry import kernel


def _lstm(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
          initial_h: np.ndarray | None, initial_c: np.ndarray | None, P: np.ndarray | None,
          activation_alpha: list[float] | None, activation_beta: list[float] | None, activations: list[str],
          clip: float | None, direction: str, hidden_size: int, input_forget: int,
          layout: int) -> tuple[np.ndarray, ...]:
    directions = num_directions("LSTM", direction)
    check_weights("LSTM", X, W, R, B, 4, hidden_size, directions)
    fgh = per_direction("LSTM", activation_functions("LSTM", activations, activation_alpha, activation_beta), 3,
                        directions)
    dtype = work_type(X)
    n = hidden_size
    if P is not None and P.shape != (directions, 3 * n):
        raise ValueError(f"LSTM: P has shape {list(P.shape)}, expected {[directions, 3 * n]}")
    batch = X.shape[1] if layout == 0 else X.shape[0]
    h0 = state_input("LSTM", "initial_h", initial_h, layout, directions, batch, n, dtype)
    c0 = state_input("LSTM", "initial_c", initial_c, layout, directions, batch, n, dtype)
    r_t = transposed(R, dtype)
    rb = np.zeros((directions, 4 * n), dtype) if B is None else B[:, 4 * n:].astype(dtype)
    p = np.zeros((directions, 3 * n), dtype) if P is None else P.astype(dtype)
    bounded = clipper(clip)

    def cell(d: int, xw: np.ndarray, states: list[np.ndarray]) -> list[np.ndarray]:
        f, g, h = fgh[d]
        h_prev, c_prev = states
        gates = xw + h_prev @ r_t[d] + rb[d]
        if P is None:
            # no peepholes: the input, output and forget gates (columns 0 to 3n) take f as one block
            iof = f(bounded(gates[:, :3 * n]))
            i, o = iof[:, :n], iof[:, n:2 * n]
            forget = 1 - i if input_forget else iof[:, 2 * n:]
            c = forget * c_prev + i * g(bounded(gates[:, 3 * n:]))
            return [o * h(c), c]
        pi, po, pf = p[d, :n], p[d, n:2 * n], p[d, 2 * n:]
        i = f(bounded(gates[:, :n] + pi * c_prev))
        forget = 1 - i if input_forget else f(bounded(gates[:, 2 * n:3 * n] + pf * c_prev))
        c = forget * c_prev + i * g(bounded(gates[:, 3 * n:]))
        o = f(bounded(gates[:, n:2 * n] + po * c))
        return [o * h(c), c]

    return tuple(recur("LSTM", X, W, B, sequence_lens, [h0, c0], layout=layout, direction=direction, cell=cell))


@kernel("ai.onnx", "LSTM", since=1, until=13, requested_outputs=True)
def lstm_v1(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
            initial_h: np.ndarray | None, initial_c: np.ndarray | None, P: np.ndarray | None, *,
            activation_alpha: list[float] | None, activation_beta: list[float] | None, activations: list[str],
            clip: float | None, direction: str, hidden_size: int, input_forget: int,
            requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _lstm(X, W, R, B, sequence_lens, initial_h, initial_c, P, activation_alpha, activation_beta,
                 activations, clip, direction, hidden_size, input_forget, 0)[:requested_outputs]


@kernel("ai.onnx", "LSTM", since=14, requested_outputs=True)
def lstm(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
         initial_h: np.ndarray | None, initial_c: np.ndarray | None, P: np.ndarray | None, *,
         activation_alpha: list[float] | None, activation_beta: list[float] | None, activations: list[str],
         clip: float | None, direction: str, hidden_size: int, input_forget: int,
         layout: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _lstm(X, W, R, B, sequence_lens, initial_h, initial_c, P, activation_alpha, activation_beta,
                 activations, clip, direction, hidden_size, input_forget, layout)[:requested_outputs]
