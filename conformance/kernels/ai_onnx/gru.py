"""GRU: update gate z, reset gate r, candidate h (reset before or after the recurrent product) per step."""

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


def _gru(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
         initial_h: np.ndarray | None, activation_alpha: list[float] | None, activation_beta: list[float] | None,
         activations: list[str], clip: float | None, direction: str, hidden_size: int, layout: int,
         linear_before_reset: int) -> tuple[np.ndarray, ...]:
    directions = num_directions("GRU", direction)
    check_weights("GRU", X, W, R, B, 3, hidden_size, directions)
    fg = per_direction("GRU", activation_functions("GRU", activations, activation_alpha, activation_beta), 2,
                       directions)
    dtype = work_type(X)
    n = hidden_size
    batch = X.shape[1] if layout == 0 else X.shape[0]
    h0 = state_input("GRU", "initial_h", initial_h, layout, directions, batch, n, dtype)
    rzr_t, rh_t = transposed(R[:, :2 * n], dtype), transposed(R[:, 2 * n:], dtype)
    rb = np.zeros((directions, 3 * n), dtype) if B is None else B[:, 3 * n:].astype(dtype)
    bounded = clipper(clip)

    def cell(d: int, xw: np.ndarray, states: list[np.ndarray]) -> list[np.ndarray]:
        f, g = fg[d]
        h = states[0]
        zr = xw[:, :2 * n] + h @ rzr_t[d] + rb[d, :2 * n]
        z, r = f(bounded(zr[:, :n])), f(bounded(zr[:, n:]))
        rbh = rb[d, 2 * n:]
        if linear_before_reset:
            candidate = xw[:, 2 * n:] + r * (h @ rh_t[d] + rbh)
        else:
            candidate = xw[:, 2 * n:] + (r * h) @ rh_t[d] + rbh
        return [(1 - z) * g(bounded(candidate)) + z * h]

    return tuple(recur("GRU", X, W, B, sequence_lens, [h0], layout=layout, direction=direction, cell=cell))


@kernel("ai.onnx", "GRU", since=1, until=2, requested_outputs=True)
def gru_v1(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
           initial_h: np.ndarray | None, *, activation_alpha: list[float] | None,
           activation_beta: list[float] | None, activations: list[str], clip: float | None, direction: str,
           hidden_size: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _gru(X, W, R, B, sequence_lens, initial_h, activation_alpha, activation_beta, activations, clip,
                direction, hidden_size, 0, 0)[:requested_outputs]


@kernel("ai.onnx", "GRU", since=3, until=13, requested_outputs=True)
def gru_v3(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
           initial_h: np.ndarray | None, *, activation_alpha: list[float] | None,
           activation_beta: list[float] | None, activations: list[str], clip: float | None, direction: str,
           hidden_size: int, linear_before_reset: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _gru(X, W, R, B, sequence_lens, initial_h, activation_alpha, activation_beta, activations, clip,
                direction, hidden_size, 0, linear_before_reset)[:requested_outputs]


@kernel("ai.onnx", "GRU", since=14, requested_outputs=True)
def gru(X: np.ndarray, W: np.ndarray, R: np.ndarray, B: np.ndarray | None, sequence_lens: np.ndarray | None,
        initial_h: np.ndarray | None, *, activation_alpha: list[float] | None, activation_beta: list[float] | None,
        activations: list[str], clip: float | None, direction: str, hidden_size: int, layout: int,
        linear_before_reset: int, requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _gru(X, W, R, B, sequence_lens, initial_h, activation_alpha, activation_beta, activations, clip,
                direction, hidden_size, layout, linear_before_reset)[:requested_outputs]
