"""DropOut (tengine, op id 8): the identity at inference."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "DropOut", since=1)
def dropout(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (x.copy(),)
