"""Tengine Clip: every element clamped to [min, max] (min wins when they cross)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.helpers import assert_pointwise_kernel

RNG = np.random.default_rng(20240602)


@pytest.mark.parametrize(("attrs", "expect"), [
    ({"min": -0.5, "max": 1.25}, lambda v: min(1.25, max(-0.5, v))),
    ({"min": 1.0, "max": -1.0}, lambda v: 1.0),
    ({}, lambda v: v),
])
def test_clip_against_min_and_max(attrs: dict[str, Any], expect: Callable[[float], float]) -> None:
    assert_pointwise_kernel("Clip", RNG.uniform(-5, 5, (2, 3, 4)), expect, **attrs)
