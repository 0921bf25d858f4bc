"""RNN: Ht = f(Xt Wi^T + Ht-1 Ri^T + Wbi + Rbi) over the sequence, per direction (the loop in `_recurrent`)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._recurrent import (
    Activation,
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


def _rnn(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
         initial_h: np.ndarray | None, activation_alpha: list[float] | None, activation_beta: list[float] | None,
         activations: list[str], clip: float | None, direction: str, hidden_size: int,
         layout: int) -> tuple[np.ndarray, ...]:
    directions = num_directions("RNN", direction)
    check_weights("RNN", X, W, R, B, 1, hidden_size, directions)
    f = per_direction("RNN", activation_functions("RNN", activations, activation_alpha, activation_beta), 1,
                      directions)
    dtype = work_type(X)
    batch = X.shape[1] if layout == 0 else X.shape[0]
    h0 = state_input("RNN", "initial_h", initial_h, layout, directions, batch, hidden_size, dtype)
    r_t = transposed(R, dtype)
    rb = np.zeros((directions, hidden_size), dtype) if B is None else B[:, hidden_size:].astype(dtype)
    bounded = clipper(clip)

    def cell(d: int, xw: np.ndarray, states: list[np.ndarray]) -> list[np.ndarray]:
        act: Activation = f[d][0]
        return [act(bounded(xw + states[0] @ r_t[d] + rb[d]))]

    return tuple(recur("RNN", X, W, B, sequence_lens, [h0], layout=layout, direction=direction, cell=cell))


@kernel("ai.onnx", "RNN", since=1, until=13, requested_outputs=True)
def rnn_v1(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
           initial_h: np.ndarray | None, *, activation_alpha: list[float] | None,
           activation_beta: list[float] | None, activations: list[str], clip: float | None, direction: str,
           hidden_size: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _rnn(X, W, R, B, sequence_lens, initial_h, activation_alpha, activation_beta, activations, clip,
                direction, hidden_size, 0)[:requested_outputs]


@kernel("ai.onnx", "RNN", since=14, requested_outputs=True)
def rnn(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
        initial_h: np.ndarray | None, *, activation_alpha: list[float] | None, activation_beta: list[float] | None,
        activations: list[str], clip: float | None, direction: str, hidden_size: int,
        layout: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _rnn(X, W, R, B, sequence_lens, initial_h, activation_alpha, activation_beta, activations, clip,
                direction, hidden_size, layout)[:requested_outputs]
