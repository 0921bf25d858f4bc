"""ReLU1 (tengine, op id 100): clips the input to [-1, 1]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ReLU1", since=1)
def relu1(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.clip(x, -1, 1).astype(x.dtype, copy=False),)
