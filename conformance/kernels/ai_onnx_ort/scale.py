"""Scale (onnxruntime's default domain, Caffe2's op): y = scale * x."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ort", "Scale", since=1)
def scale(x: np.ndarray, *, scale: float) -> tuple[np.ndarray, ...]:
    return ((x * np.asarray(scale, x.dtype)).astype(x.dtype),)
