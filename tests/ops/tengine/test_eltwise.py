"""Tengine Eltwise: its binary and unary type codes and Tengine's broadcasts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import kernel

RNG = np.random.default_rng(20240601)
eltwise = kernel("tengine", "Eltwise")

_BINARY_CASES: list[tuple[int, Any]] = [
    (0, lambda a, b: a * b), (1, lambda a, b: a * b.flat[0]), (2, lambda a, b: a + b),
    (3, lambda a, b: a + b.flat[0]), (4, lambda a, b: a - b), (5, lambda a, b: a - b.flat[0]),
    (6, np.maximum), (8, lambda a, b: np.minimum(a, b.flat[0])), (10, lambda a, b: a / b),
    (16, lambda a, b: np.abs(a) ** b),
]


@pytest.mark.parametrize(("op_type", "expect"), _BINARY_CASES)
def test_eltwise_binary_types(op_type: int, expect: Any) -> None:
    a = RNG.uniform(0.5, 2.0, (2, 3, 2, 2))
    b = RNG.uniform(0.5, 2.0, (2, 3, 2, 2))
    a_in = np.abs(a) if op_type == 16 else a
    np.testing.assert_allclose(eltwise(a_in, b, type=op_type)[0], expect(a, b), rtol=1e-12)


def test_eltwise_broadcasts_like_tengine() -> None:
    a = RNG.standard_normal((2, 3, 2, 2))
    per_channel = RNG.standard_normal(6)
    want = a.copy()
    for n in range(2):
        for c in range(3):
            want[n, c] += per_channel[n * 3 + c]
    np.testing.assert_allclose(eltwise(a, per_channel, type=2)[0], want, rtol=1e-12)
    np.testing.assert_allclose(eltwise(a, np.array([2.0]), type=0)[0], a * 2, rtol=1e-12)
    with pytest.raises(ValueError, match="broadcast"):
        eltwise(a, np.ones(5), type=2)
    with pytest.raises(ValueError, match="second input"):
        eltwise(a, None, type=2)


@pytest.mark.parametrize(("op_type", "expect"), [
    (7, lambda a: 1 / np.sqrt(a)), (11, np.log), (12, np.exp), (13, np.sqrt), (14, np.floor), (15, lambda a: a * a),
    (17, lambda a: (0.5 + 3.0 * a) ** 2.0),
])
def test_eltwise_unary_types(op_type: int, expect: Any) -> None:
    a = RNG.uniform(0.1, 3.0, (1, 2, 3, 3)).astype(np.float32)
    (y,) = eltwise(a, type=op_type, shift=0.5, scale=3.0, power=2.0)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, expect(a.astype(np.float64)), rtol=1e-5)
