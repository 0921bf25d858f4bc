"""ReLU6 (tengine, op id 21): clips the input to [0, 6]."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ReLU6", since=1)
def relu6(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.clip(x, 0, 6).astype(x.dtype, copy=False),)
