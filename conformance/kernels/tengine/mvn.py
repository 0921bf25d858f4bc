"""MVN (tengine, op id 67): subtract the mean and, optionally, divide by Tengine's root mean square plus eps."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "MVN", since=1)
def mvn(x: np.ndarray, *, across_channels: int, normalize_variance: int, eps: float) -> tuple[np.ndarray, ...]:
    if x.ndim != 4:
        raise ValueError(f"MVN: input must be NCHW (rank 4), got shape {x.shape}")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    axes = (1, 2, 3) if across_channels else (2, 3)
    y = work - work.mean(axis=axes, keepdims=True)
    if normalize_variance:
        # Tengine's divisor is sqrt(mean(x^2)) of the input itself, not of the centred values (see the op doc).
        rms = np.sqrt(np.square(work).mean(axis=axes, keepdims=True))
        y = y / (rms + np.asarray(eps, work.dtype))
    return (y.astype(x.dtype, copy=False),)
