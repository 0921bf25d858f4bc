"""HannWindow: w[n] = 0.5 - 0.5 cos(2 pi n / N) (equal to sin^2(pi n / N))
for n in [0, size), with N = size when periodic, size - 1 when symmetric.

Computed in double and converted once to the type output_datatype names (see `_signal.cosine_window`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._signal import cosine_window
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "HannWindow", since=17)
def hann_window(size: np.ndarray, *, output_datatype: int, periodic: int) -> tuple[np.ndarray, ...]:
    return (cosine_window("HannWindow", size, periodic, output_datatype, (0.5, 0.5)),)
