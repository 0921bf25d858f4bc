"""BatchNormalization (tengine, op id 1): inference batch norm with Caffe's rescale factor.

With r = 1 / rescale_factor (0 when rescale_factor is 0) Tengine computes
`(x - r * mean) / sqrt(r * var + eps)`, then `gamma * that + beta` unless caffe_flavor is set
(Caffe's BatchNorm layer has no affine part; gamma and beta are then not read).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("tengine", "BatchNormalization", since=1)
def batch_normalization(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, mean: np.ndarray, var: np.ndarray, *,
                        rescale_factor: float, eps: float, caffe_flavor: int) -> tuple[np.ndarray, ...]:
    if x.ndim < 2:
        raise ValueError(f"BatchNormalization: input {x.shape} needs a channel axis")
    c = x.shape[1]
    work = np.promote_types(x.dtype, np.float32)
    shape = (1, c) + (1,) * (x.ndim - 2)

    def channel(t: np.ndarray, name: str) -> np.ndarray:
        if t.size != c:
            raise ValueError(f"BatchNormalization: {name} needs {c} values, got {t.shape}")
        return t.reshape(shape).astype(work, copy=False)

    r = 1.0 / rescale_factor if rescale_factor else 0.0
    inv = 1.0 / np.sqrt(channel(var, "var") * np.asarray(r, work) + np.asarray(eps, work))
    y = (x.astype(work, copy=False) - channel(mean, "mean") * np.asarray(r, work)) * inv
    if not caffe_flavor:
        y = channel(gamma, "gamma") * y + channel(beta, "beta")
    return (y.astype(x.dtype, copy=False),)
