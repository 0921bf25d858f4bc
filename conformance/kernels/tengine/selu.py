"""SELU (tengine, op id 72): lambda * x above zero, alpha * lambda * (exp(x) - 1) below (lambda is `gamma`)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SELU", since=1)
def selu(x: np.ndarray, *, alpha: float, gamma: float) -> tuple[np.ndarray, ...]:
    work_dtype = np.promote_types(x.dtype, np.float32)
    work = x.astype(work_dtype, copy=False)
    scale = np.asarray(gamma, work_dtype)
    negative = np.expm1(np.minimum(work, 0)) * (np.asarray(alpha, work_dtype) * scale)
    y = np.where(work < 0, negative, work * scale)
    return (y.astype(x.dtype, copy=False),)
