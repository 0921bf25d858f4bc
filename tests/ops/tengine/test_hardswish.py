"""Tengine HardSwish: x * clamp(alpha * x + beta, 0, 6) / 6."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


@pytest.mark.parametrize(("attrs", "expect"), [
    ({}, lambda v: v * min(6.0, max(0.0, v + 3)) / 6),
    ({"alpha": 2.0, "beta": 1.0}, lambda v: v * min(6.0, max(0.0, 2 * v + 1)) / 6),
])
def test_hardswish_against_its_formula(attrs: dict[str, Any], expect: Callable[[float], float]) -> None:
    assert_pointwise_kernel("HardSwish", RNG.uniform(-5, 5, (2, 3, 4)), expect, **attrs)
