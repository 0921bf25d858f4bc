"""Shape (tengine, op id 94): the input's dims as int32."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "Shape", since=1)
def shape(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.asarray(x.shape, dtype=np.int32).reshape(x.ndim),)
