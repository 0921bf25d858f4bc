"""Multinomial: per row b of the [batch, classes] logits, `sample_size` independent draws of a class index, class c
with probability softmax(input[b])[c]; of type `dtype` (int32 or int64).

Inverse-CDF sampling in float64: a uniform u in [0, 1) draws the number of classes whose cumulative probability is
<= u, so a class of probability 0 (logit -inf) is never drawn. A row whose logits include +inf draws among those
classes alone (their probability is 1); a row without a finite or +inf logit, or with a NaN, has no distribution and
is rejected. `seed` fixes the draw in this reference (see `_random`).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._random import float_seed, generator, output_dtype
from conformance.kernels.registry import kernel


def class_probabilities(logits: np.ndarray) -> np.ndarray:
    """softmax of each row of a 2-D array, in float64 (exact 0 for a logit of -inf)."""
    x = logits.astype(np.float64)
    if np.isnan(x).any():
        raise ValueError("Multinomial: a logit is NaN")
    top = np.isposinf(x)
    has_top = np.asarray(top.any(axis=1, keepdims=True))
    finite_max = np.max(np.where(np.isfinite(x), x, -np.inf), axis=1, keepdims=True, initial=-np.inf)
    empty = np.asarray(~has_top[:, 0] & np.isneginf(finite_max[:, 0]))
    if empty.any():
        raise ValueError(f"Multinomial: row {int(np.flatnonzero(empty)[0])} has no class of nonzero probability")
    with np.errstate(invalid="ignore", over="ignore"):  # exp(inf) in rows the +inf classes decide (not used)
        weights = np.where(has_top, top.astype(np.float64), np.exp(x - np.where(has_top, 0.0, finite_max)))
    return np.asarray(weights / weights.sum(axis=1, keepdims=True))


@kernel("ai.onnx", "Multinomial", since=7, exact_types=True)
def multinomial(input: np.ndarray, *, dtype: int, sample_size: int, seed: float | None) -> tuple[np.ndarray, ...]:
    if input.ndim != 2 or input.shape[1] < 1:
        raise ValueError(f"Multinomial: the input must be [batch_size, class_size >= 1], it is {list(input.shape)}")
    if sample_size < 1:
        raise ValueError(f"Multinomial: sample_size {sample_size} must be >= 1")
    target = output_dtype("Multinomial", dtype)
    if target not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"Multinomial: dtype must be int32 or int64, not {target}")
    cdf = np.cumsum(class_probabilities(input), axis=1)
    cdf /= cdf[:, -1:]  # exactly 1 at the end, so every u < 1 lands on a class
    u = generator(float_seed(seed)).random(size=(input.shape[0], sample_size))
    drawn = (cdf[:, None, :] <= u[:, :, None]).sum(axis=2)
    return (drawn.astype(target),)
