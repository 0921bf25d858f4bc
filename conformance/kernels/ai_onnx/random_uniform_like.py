"""RandomUniformLike: RandomUniform in the input's shape, of type `dtype`, else of the input's (a float) type."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import float_output_dtype
from conformance.kernels.ai_onnx.random_uniform import uniform_draw
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "RandomUniformLike", since=1, exact_types=True)
def random_uniform_like(input: np.ndarray, *, dtype: int | None, high: float, low: float,
                        seed: float | None) -> tuple[np.ndarray, ...]:
    op = "RandomUniformLike"
    return (uniform_draw(op, tuple(input.shape), low, high, seed, float_output_dtype(op, dtype, input)),)
