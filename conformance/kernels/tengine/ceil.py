"""Ceil (tengine, op id 83): the smallest integer not below x, elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Ceil", since=1)
def ceil(x: np.ndarray) -> tuple[np.ndarray, ...]:
    # Tengine's reference kernel writes into its input for ranks below 4 (a bug); the meaning is ceilf.
    return (np.ceil(x),)
