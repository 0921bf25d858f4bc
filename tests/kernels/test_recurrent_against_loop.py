"""LSTM, GRU and RNN (the full-length path without masks, the transposed recurrent weights, LSTM's one activation
over the i/o/f block) against a plain loop: one batch entry and one step at a time, in float64.

Drawn cases cover directions, sequence lengths (full, shorter, zero), absent and present B, initial states and
peepholes, clip, input_forget, linear_before_reset and several activation functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.kernels.ai_onnx.gru import gru
from conformance.kernels.ai_onnx.lstm import lstm
from conformance.kernels.ai_onnx.rnn import rnn

ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    "Tanh": np.tanh,
    "HardSigmoid": lambda v: np.clip(0.2 * v + 0.5, 0, 1),  # the defaults alpha 0.2, beta 0.5
    "Softsign": lambda v: v / (1 + np.abs(v)),
    "Relu": lambda v: np.maximum(v, 0),
}
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
PER_DIRECTION = {"LSTM": 3, "GRU": 2, "RNN": 1}


def step_lstm(x: np.ndarray, h: np.ndarray, c: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray,
              p: np.ndarray, acts: list[Callable[[np.ndarray], np.ndarray]], clip: Callable[[np.ndarray], np.ndarray],
              input_forget: int, **_: Any) -> tuple[np.ndarray, np.ndarray]:
    f, g, hh = acts
    n = h.size
    pre = w @ x + r @ h + b[:4 * n] + b[4 * n:]
    i = f(clip(pre[:n] + p[:n] * c))
    forget = 1 - i if input_forget else f(clip(pre[2 * n:3 * n] + p[2 * n:] * c))
    c_new = forget * c + i * g(clip(pre[3 * n:]))
    o = f(clip(pre[n:2 * n] + p[n:2 * n] * c_new))
    return o * hh(c_new), c_new


def step_gru(x: np.ndarray, h: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray,
             acts: list[Callable[[np.ndarray], np.ndarray]], clip: Callable[[np.ndarray], np.ndarray],
             linear_before_reset: int, **_: Any) -> tuple[np.ndarray]:
    f, g = acts
    n = h.size
    wb, rb = b[:3 * n], b[3 * n:]
    z = f(clip(w[:n] @ x + r[:n] @ h + wb[:n] + rb[:n]))
    reset = f(clip(w[n:2 * n] @ x + r[n:2 * n] @ h + wb[n:2 * n] + rb[n:2 * n]))
    if linear_before_reset:
        cand = w[2 * n:] @ x + reset * (r[2 * n:] @ h + rb[2 * n:]) + wb[2 * n:]
    else:
        cand = w[2 * n:] @ x + r[2 * n:] @ (reset * h) + rb[2 * n:] + wb[2 * n:]
    return ((1 - z) * g(clip(cand)) + z * h,)


def step_rnn(x: np.ndarray, h: np.ndarray, w: np.ndarray, r: np.ndarray, b: np.ndarray,
             acts: list[Callable[[np.ndarray], np.ndarray]], clip: Callable[[np.ndarray], np.ndarray],
             **_: Any) -> tuple[np.ndarray]:
    n = h.size
    return (acts[0](clip(w @ x + r @ h + b[:n] + b[n:])),)


def by_loop(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> list[np.ndarray]:
    """Y [steps, directions, batch, hidden] and the final states, in float64."""
    X, W, R, B, lens, h0 = (None if v is None else np.asarray(v, np.float64) for v in inputs[:6])
    assert X is not None and W is not None and R is not None
    c0 = p = None
    if op == "LSTM":
        c0, p = (None if v is None else np.asarray(v, np.float64) for v in inputs[6:8])
    steps, batch = X.shape[:2]
    n = attrs["hidden_size"]
    directions = 2 if attrs["direction"] == "bidirectional" else 1
    lengths = [steps] * batch if lens is None else [int(v) for v in lens]
    bound = attrs["clip"]
    clip: Callable[[np.ndarray], np.ndarray] = (lambda v: v) if bound is None else (
        lambda v: np.clip(v, -bound, bound))
    per = PER_DIRECTION[op]
    step = {"LSTM": step_lstm, "GRU": step_gru, "RNN": step_rnn}[op]
    n_states = 2 if op == "LSTM" else 1
    y = np.zeros((steps, directions, batch, n))
    finals = np.zeros((n_states, directions, batch, n))
    for d in range(directions):
        acts = [ACTIVATIONS[a] for a in attrs["activations"][d * per:(d + 1) * per]]
        b = np.zeros(2 * GATES[op] * n) if B is None else B[d]
        for e in range(batch):
            states = [np.zeros(n) if h0 is None else h0[d, e]]
            if op == "LSTM":
                states.append(np.zeros(n) if c0 is None else c0[d, e])
            backward = attrs["direction"] == "reverse" or d == 1
            order = range(lengths[e] - 1, -1, -1) if backward else range(lengths[e])
            for t in order:
                extra = dict(p=np.zeros(3 * n) if p is None else p[d], input_forget=attrs.get("input_forget", 0),
                             linear_before_reset=attrs.get("linear_before_reset", 0))
                states = list(step(X[t, e], *states, W[d], R[d], b, acts=acts, clip=clip, **extra))
                y[t, d, e] = states[0]
            if lengths[e]:
                for k, s in enumerate(states):
                    finals[k, d, e] = s
    return [y, *finals]


@st.composite
def recurrent_cases(draw: st.DrawFn, op: str) -> tuple[list[np.ndarray | None], dict[str, Any]]:
    steps, batch, size, n = draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), \
        draw(st.integers(1, 4))
    direction = draw(st.sampled_from(["forward", "reverse", "bidirectional"]))
    directions = 2 if direction == "bidirectional" else 1
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def f32(*shape: int) -> np.ndarray:
        return rng.uniform(-1.5, 1.5, shape).astype(np.float32)

    gates = GATES[op]
    lens_kind = draw(st.sampled_from(["absent", "full", "drawn"]))
    lens = None if lens_kind == "absent" else np.full(batch, steps, np.int32) if lens_kind == "full" else \
        np.array([draw(st.integers(0, steps)) for _ in range(batch)], np.int32)
    inputs: list[np.ndarray | None] = [
        f32(steps, batch, size), f32(directions, gates * n, size), f32(directions, gates * n, n),
        f32(directions, 2 * gates * n) if draw(st.booleans()) else None, lens,
        f32(directions, batch, n) if draw(st.booleans()) else None,
    ]
    names = list(ACTIVATIONS)
    activations = [draw(st.sampled_from(names)) for _ in range(PER_DIRECTION[op] * directions)]
    attrs: dict[str, Any] = dict(activation_alpha=None, activation_beta=None, activations=activations,
                                 clip=draw(st.sampled_from([None, 0.7, 3.0])), direction=direction, hidden_size=n,
                                 layout=0, requested_outputs=3 if op == "LSTM" else 2)
    if op == "LSTM":
        inputs += [f32(directions, batch, n) if draw(st.booleans()) else None,
                   f32(directions, 3 * n) if draw(st.booleans()) else None]
        attrs["input_forget"] = draw(st.integers(0, 1))
    if op == "GRU":
        attrs["linear_before_reset"] = draw(st.integers(0, 1))
    return inputs, attrs


KERNELS: dict[str, Callable[..., tuple[np.ndarray, ...]]] = {"LSTM": lstm, "GRU": gru, "RNN": rnn}


def check(op: str, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    got = KERNELS[op](*inputs, **attrs)
    expected = by_loop(op, inputs, attrs)
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5, err_msg=f"{op} output {k}, {attrs}")


@settings(max_examples=120, deadline=None)
@given(recurrent_cases("LSTM"))
def test_lstm_matches_the_loop(case: tuple[list[np.ndarray | None], dict[str, Any]]) -> None:
    check("LSTM", *case)


@settings(max_examples=80, deadline=None)
@given(recurrent_cases("GRU"))
def test_gru_matches_the_loop(case: tuple[list[np.ndarray | None], dict[str, Any]]) -> None:
    check("GRU", *case)


@settings(max_examples=80, deadline=None)
@given(recurrent_cases("RNN"))
def test_rnn_matches_the_loop(case: tuple[list[np.ndarray | None], dict[str, Any]]) -> None:
    check("RNN", *case)
