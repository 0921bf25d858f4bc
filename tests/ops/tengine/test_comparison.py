"""Tengine Comparison: the six comparison codes and Tengine's broadcasts."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Comparison", 1)
comparison = kernel("tengine", "Comparison")


@pytest.mark.parametrize("code", range(6))
@pytest.mark.parametrize("b_shape", [(1,), (1, 3, 2, 2), (3,)])
def test_comparison_codes_and_broadcast(code: int, b_shape: tuple[int, ...]) -> None:
    a = RNG.integers(0, 3, (1, 3, 2, 2)).astype(np.float32)
    b = RNG.integers(0, 3, b_shape).astype(np.float32)
    (y,) = comparison(a, b, type=code)
    ops = [lambda p, q: p == q, lambda p, q: p != q, lambda p, q: p > q, lambda p, q: p >= q,
           lambda p, q: p < q, lambda p, q: p <= q]
    flat_b = b.reshape(-1)
    for n, c, h, w in np.ndindex(*a.shape):
        other = flat_b[0] if b.size == 1 else flat_b[c] if b.size == 3 else b[n, c, h, w]
        assert y[n, c, h, w] == float(ops[code](a[n, c, h, w], other))
    assert formula_shapes(V, [a, b], {"type": code}) == [list(y.shape)]
    (swapped,) = comparison(b, a, type=code) if len(b_shape) < 4 else (y,)
    assert swapped.shape == a.shape
