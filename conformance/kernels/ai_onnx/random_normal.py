"""RandomNormal: values drawn from the normal law N(mean, scale**2) in the shape `shape`, of type `dtype`.

Drawn in float64 and rounded to the output type; `seed` fixes the draw in this reference (see `_random`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import checked_shape, float_output_dtype, float_seed, generator
from conformance.kernels.registry import kernel


def normal_draw(op: str, shape: tuple[int, ...], mean: float, scale: float, seed: float | None,
                target: np.dtype) -> np.ndarray:
    """`shape` values of N(mean, scale**2) in `target` (shared with RandomNormalLike)."""
    if not scale >= 0:
        raise ValueError(f"{op}: scale {scale} is a standard deviation and must be >= 0")
    values = generator(float_seed(seed)).normal(mean, scale, size=shape)
    return np.asarray(values).astype(target)


@kernel("ai.onnx", "RandomNormal", since=1)
def random_normal(*, dtype: int, mean: float, scale: float, seed: float | None,
                  shape: list[int]) -> tuple[np.ndarray, ...]:
    op = "RandomNormal"
    return (normal_draw(op, checked_shape(op, shape), mean, scale, seed, float_output_dtype(op, dtype)),)
