"""com.microsoft Gelu: the exact Gelu, 0.5 * x * (1 + erf(x / sqrt(2))), computed in float64, rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import exact_gelu
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "Gelu", since=1)
def gelu(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (exact_gelu(x).astype(x.dtype),)
