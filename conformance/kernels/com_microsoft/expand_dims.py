"""com.microsoft ExpandDims: X's values in its shape with one axis of size 1 inserted at the scalar `axis`."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("com.microsoft", "ExpandDims", since=1)
def expand_dims(x: np.ndarray, axis: np.ndarray) -> tuple[np.ndarray, ...]:
    if axis.ndim > 1 or axis.size != 1:
        raise ValueError(f"ExpandDims: axis must be a scalar, it has shape {list(axis.shape)}")
    r = x.ndim
    a = int(axis.reshape(-1)[0])
    if not -r - 1 <= a <= r:
        raise ValueError(f"ExpandDims: axis {a} is outside [{-r - 1}, {r}]")
    p = a + r + 1 if a < 0 else a
    return (x.reshape((*x.shape[:p], 1, *x.shape[p:])).copy(),)
