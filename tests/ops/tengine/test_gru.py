"""Tengine GRU: the recurrence against a scalar loop, with and without bias."""

from __future__ import annotations

import math

import numpy as np

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "GRU", 1)
gru = kernel("tengine", "GRU")


def test_gru_against_scalar_recurrence() -> None:
    seq, batch, size, hidden = 3, 2, 4, 3
    x = RNG.standard_normal((seq, batch, size))
    w, r = RNG.standard_normal((1, 3 * hidden, size)), RNG.standard_normal((1, 3 * hidden, hidden))
    b = RNG.standard_normal((1, 6 * hidden))
    (y,) = gru(x, w, r, b, hidden_size=hidden)

    def sig(v: float) -> float:
        return 1 / (1 + math.exp(-v))

    want = np.zeros((seq, 1, batch, hidden))
    for n in range(batch):
        h = [0.0] * hidden
        for t in range(seq):
            def lin(gate: int, q: int, t: int = t, n: int = n) -> float:
                row = gate * hidden + q
                return float(sum(x[t, n, m] * w[0, row, m] for m in range(size)) + b[0, row])

            def rec(gate: int, q: int, h: list[float] = h) -> float:
                row = gate * hidden + q
                return float(sum(h[k] * r[0, row, k] for k in range(hidden)))

            z = [sig(lin(0, q) + rec(0, q) + b[0, 3 * hidden + q]) for q in range(hidden)]
            rs = [sig(lin(1, q) + rec(1, q) + b[0, 4 * hidden + q]) for q in range(hidden)]
            cand = [math.tanh(lin(2, q) + rs[q] * rec(2, q) + b[0, 5 * hidden + q]) for q in range(hidden)]
            h = [(1 - z[q]) * cand[q] + z[q] * h[q] for q in range(hidden)]
            want[t, 0, n] = h
    np.testing.assert_allclose(y, want, rtol=1e-10)
    assert formula_shapes(V, [x, w, r, b]) == [[seq, 1, batch, hidden]]
    (no_bias,) = gru(x, w, r)
    assert no_bias.shape == y.shape and not np.allclose(no_bias, y)
