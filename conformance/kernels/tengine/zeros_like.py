"""ZerosLike (tengine, op id 86): zeros with the input's shape and type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ZerosLike", since=1)
def zeros_like(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.zeros_like(x),)
