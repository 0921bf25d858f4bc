"""Bernoulli: 1 with probability p (the input, element by element), else 0, of type `dtype` (else the input's).

A uniform draw u in [0, 1) gives 1 where u < p: exactly never for p = 0 and always for p = 1. `seed` fixes the draw
in this reference (see `_random`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import float_seed, generator, output_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Bernoulli", since=15, exact_types=True)
def bernoulli(input: np.ndarray, *, dtype: int | None, seed: float | None) -> tuple[np.ndarray, ...]:
    target = output_dtype("Bernoulli", dtype, input)
    p = input.astype(np.float64)
    if not np.all((p >= 0) & (p <= 1)):  # NaN fails too
        bad = p[~((p >= 0) & (p <= 1))]
        raise ValueError(f"Bernoulli: probabilities must lie in [0, 1], got {bad.reshape(-1)[0]}")
    ones = generator(float_seed(seed)).random(size=p.shape) < p
    return (ones.astype(target),)
