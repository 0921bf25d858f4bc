"""LeakyRelu (ai.onnx.modified): tf.nn.leaky_relu, x for x >= 0 else alpha * x; alpha defaults to 0.2."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.modified", "LeakyRelu", since=1)
def leaky_relu(x: np.ndarray, *, alpha: float) -> tuple[np.ndarray, ...]:
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    y = np.where(work < 0, work * np.asarray(alpha, work.dtype), work)
    return (y.astype(x.dtype, copy=False),)
