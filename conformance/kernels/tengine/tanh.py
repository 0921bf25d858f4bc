"""TanH (tengine, op id 36): tanh of every element."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "TanH", since=1)
def tanh(x: np.ndarray) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    return (np.tanh(work).astype(x.dtype, copy=False),)
