"""Tengine Addn: the elementwise sum of its inputs, which must share one shape."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, inferred, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Addn", 1)
addn = kernel("tengine", "Addn")


def test_addn_sums_and_rejects_mixed_shapes() -> None:
    a, b, c = (RNG.standard_normal((2, 3)) for _ in range(3))
    (y,) = addn(a, b, c)
    want = [[a[i, j] + b[i, j] + c[i, j] for j in range(3)] for i in range(2)]
    np.testing.assert_allclose(y, want, rtol=1e-12)
    assert formula_shapes(V, [a, b, c]) == [[2, 3]]
    with pytest.raises(ValueError, match="Addn"):
        addn(a, np.ones((3, 2)))
    assert inferred(V, [[2, 3], [3, 2]]).problems
