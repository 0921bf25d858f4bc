"""BlackmanWindow: w[n] = 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)
for n in [0, size), with N = size when periodic, size - 1 when symmetric.

Computed in double and converted once to the type output_datatype names (see `_signal.cosine_window`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._signal import cosine_window
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BlackmanWindow", since=17)
def blackman_window(size: np.ndarray, *, output_datatype: int, periodic: int) -> tuple[np.ndarray, ...]:
    return (cosine_window("BlackmanWindow", size, periodic, output_datatype, (0.42, 0.5, 0.08)),)
