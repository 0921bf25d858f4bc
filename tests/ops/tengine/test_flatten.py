"""Tengine Flatten: axes axis .. end_axis merged into one, the data unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import formula_shapes, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Flatten", 1)
flatten = kernel("tengine", "Flatten")


def test_flatten_shapes() -> None:
    z = RNG.standard_normal((2, 3, 1, 4))
    (flat,) = flatten(z)
    assert flat.shape == (2, 12) and flat[1, 5] == z[1, 1, 0, 1]
    assert formula_shapes(V, [z]) == [[2, 12]]
    (part,) = flatten(z.reshape(2, 3, 4, 1), axis=1, end_axis=2)
    assert [2, 12] == list(part.shape) == formula_shapes(V, [part.reshape(2, 3, 4, 1)], {"end_axis": 2})[0]
    with pytest.raises(ValueError, match="Flatten"):
        flatten(RNG.standard_normal((2, 3, 4)), axis=1, end_axis=1)
