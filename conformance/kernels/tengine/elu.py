"""ELU (tengine, op id 73): x for x >= 0, alpha * (exp(x) - 1) otherwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "ELU", since=1)
def elu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y = np.where(work < 0, np.expm1(np.minimum(work, 0)) * np.asarray(alpha, work.dtype), work)
    return (y.astype(x.dtype, copy=False),)
