"""Squeeze (tengine, op id 38): drops size-1 axes named in TensorFlow's NHWC numbering (or all of them)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel

UNSET = -2
NHWC_TO_NCHW = (0, 2, 3, 1)  # Tengine's real_shape table: TensorFlow axis -> axis of the NCHW graph


@kernel("tengine", "Squeeze", since=1)
def squeeze(x: np.ndarray, *, dim_0: int, dim_1: int, dim_2: int, dim_3: int) -> tuple[np.ndarray, ...]:
    given = [d for d in (dim_0, dim_1, dim_2, dim_3) if d != UNSET]
    if any(not 0 <= d <= 3 for d in given):
        raise ValueError(f"Squeeze: dims must be -2 or 0 to 3, got {given}")
    named = {NHWC_TO_NCHW[d] for d in given} if given else set(range(x.ndim))
    if any(a >= x.ndim for a in named):
        raise ValueError(f"Squeeze: named axes {sorted(named)} do not all exist in shape {x.shape}")
    # a named axis whose size is not 1 stays, as in Tengine
    out = [size for i, size in enumerate(x.shape) if not (i in named and size == 1)]
    return (x.reshape(out),)
