"""Tengine RNN: a tanh recurrence over [x, h] against loops, keeping the last output_len steps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize("with_state", [False, True])
def test_rnn_matches_loops(with_state: bool) -> None:
    steps, batch, size, hid = 4, 2, 3, 2
    x = RNG.standard_normal((steps, batch, size))
    kern = RNG.standard_normal((size + hid, hid))
    bias = RNG.standard_normal(hid)
    init = RNG.standard_normal(hid) if with_state else None
    (y,) = tengine_run("RNN", [x, kern, bias, init], output_len=3, input_size=size, hidden_size=hid)
    outs = []
    for b in range(batch):
        h = list(init) if init is not None else [0.0] * hid
        seq = []
        for t in range(steps):
            v = list(x[t, b]) + h
            h = [math.tanh(sum(v[i] * kern[i, j] for i in range(size + hid)) + bias[j]) for j in range(hid)]
            seq.append(h)
        outs.append(seq[-3:])
    want = np.array(outs).transpose(1, 0, 2)
    np.testing.assert_allclose(y, want, rtol=1e-10)
