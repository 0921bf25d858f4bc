"""HardSwish (tengine, op id 70): x * clip(alpha * x + beta, 0, 6) / 6 elementwise."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "HardSwish", since=1)
def hardswish(x: np.ndarray, *, alpha: float, beta: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    gate = np.clip(work * np.asarray(alpha, work.dtype) + np.asarray(beta, work.dtype), 0, 6)
    return ((work * gate / 6).astype(x.dtype, copy=False),)
