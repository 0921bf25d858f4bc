"""com.microsoft ScaledSiLU: Z = T(s * X), S = T(sigmoid(Z)), Y = T(Z * S), s the scalar `scale` input when given,
otherwise the `alpha` attribute. Each step computes in float32 and rounds to X's type T, as onnxruntime's kernel
does: the rounding to T between the steps is the op's meaning, so the kernel takes bfloat16 as it is
(exact_types) instead of widened to float32 and rounded once."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft._fused import sigmoid
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "ScaledSiLU", since=1, exact_types=True)
def scaled_si_lu(x: np.ndarray, scale: np.ndarray | None, *, alpha: float) -> tuple[np.ndarray, ...]:
    if scale is not None and scale.size != 1:
        raise ValueError(f"ScaledSiLU: scale must be a scalar, got shape {scale.shape}")
    s = np.float32(alpha) if scale is None else np.float32(scale.astype(np.float32).reshape(()))
    t = x.dtype
    z = (s * x.astype(np.float32)).astype(t)
    zf = z.astype(np.float32)
    g = sigmoid(zf).astype(t).astype(np.float32)
    return (np.asarray(zf * g).astype(t),)
