"""SwapAxis (tengine, op id 50): exchanges axes dim_0 and dim_1."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "SwapAxis", since=1)
def swap_axis(x: np.ndarray, *, dim_0: int, dim_1: int) -> tuple[np.ndarray, ...]:
    if dim_0 == dim_1 or not (0 <= dim_0 < x.ndim and 0 <= dim_1 < x.ndim):
        raise ValueError(f"SwapAxis: axes {dim_0} and {dim_1} must differ and lie in [0, {x.ndim})")
    return (np.ascontiguousarray(np.swapaxes(x, dim_0, dim_1)),)
