"""RandomNormalLike: RandomNormal in the input's shape, of type `dtype`, else of the input's (a float) type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import float_output_dtype
from conformance.kernels.ai_onnx.random_normal import normal_draw
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "RandomNormalLike", since=1, exact_types=True)
def random_normal_like(input: np.ndarray, *, dtype: int | None, mean: float, scale: float,
                       seed: float | None) -> tuple[np.ndarray, ...]:
    op = "RandomNormalLike"
    return (normal_draw(op, tuple(input.shape), mean, scale, seed, float_output_dtype(op, dtype, input)),)
