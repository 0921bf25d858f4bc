"""RandomUniform: values drawn from the uniform law on [low, high) in the shape `shape`, of type `dtype`.

Drawn in float64 and rounded to the output type (where a draw just below `high` may round to `high`); `seed` fixes
the draw in this reference (see `_random`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import checked_shape, float_output_dtype, float_seed, generator
from conformance.kernels.registry import kernel


def uniform_draw(op: str, shape: tuple[int, ...], low: float, high: float, seed: float | None,
                 target: np.dtype) -> np.ndarray:
    """`shape` values of U[low, high) in `target` (shared with RandomUniformLike)."""
    if not low <= high:
        raise ValueError(f"{op}: low {low} exceeds high {high}")
    values = low + (high - low) * generator(float_seed(seed)).random(size=shape)
    return np.asarray(values).astype(target)


@kernel("ai.onnx", "RandomUniform", since=1)
def random_uniform(*, dtype: int, high: float, low: float, seed: float | None,
                   shape: list[int]) -> tuple[np.ndarray, ...]:
    op = "RandomUniform"
    return (uniform_draw(op, checked_shape(op, shape), low, high, seed, float_output_dtype(op, dtype)),)
