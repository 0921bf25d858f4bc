"""Tengine Gemm: alpha * op(A) @ op(B) + beta * C against plain loops."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Gemm", 1)
gemm = kernel("tengine", "Gemm")


@pytest.mark.parametrize(("ta", "tb", "c_shape"), [(0, 0, None), (1, 0, (4,)), (0, 1, (3, 1)), (1, 1, (3, 4))])
def test_gemm_against_loops(ta: int, tb: int, c_shape: tuple[int, ...] | None) -> None:
    a = RNG.standard_normal((2, 3) if ta else (3, 2))
    b = RNG.standard_normal((4, 2) if tb else (2, 4))
    c = None if c_shape is None else RNG.standard_normal(c_shape)
    (y,) = gemm(a, b, c, alpha=0.5, beta=2.0, transA=ta, transB=tb)
    am, bm = (a.T if ta else a), (b.T if tb else b)
    cb = np.zeros((3, 4)) if c is None else np.broadcast_to(c, (3, 4))
    want = [[0.5 * sum(am[i, k] * bm[k, j] for k in range(2)) + 2.0 * cb[i, j] for j in range(4)] for i in range(3)]
    np.testing.assert_allclose(y, want, rtol=1e-12)
    assert formula_shapes(V, [a, b, c], {"transA": ta, "transB": tb}) == [[3, 4]]
