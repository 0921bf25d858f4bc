"""NegativeLogLikelihoodLoss (12, 13, 22): -input[n, target, d] * weight[target], ignored samples weigh 0.

"mean" divides by the total weight of the samples that are not ignored (the count of them without
`weight`), as onnx's text and onnxruntime do (onnx.reference differs for ignore_index = -1 without a
weight: reading negativeloglikelihoodloss_r1). Sums run in float64 and the result takes the input's type.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def weighted_nll(log_prob: np.ndarray, target: np.ndarray, weight: np.ndarray | None, reduction: str,
                 ignore_index: int | None, op: str) -> np.ndarray:
    """The loss of `log_prob` (N, C, d...) against class indices `target` (N, d...)."""
    if log_prob.ndim < 2 or target.shape != log_prob.shape[:1] + log_prob.shape[2:]:
        raise ValueError(f"{op}: target shape {target.shape} does not fit input shape {log_prob.shape}")
    classes = log_prob.shape[1]
    t = target.astype(np.int64)
    ignored = t == ignore_index if ignore_index is not None else np.zeros(t.shape, dtype=bool)
    bad = ~ignored & ((t < 0) | (t >= classes))
    if np.any(bad):
        raise ValueError(f"{op}: target {int(t[bad][0])} is not a class in [0, {classes}) nor the ignore_index")
    safe = np.where(ignored, 0, t)
    picked = np.take_along_axis(log_prob.astype(np.float64), safe[:, None, ...], axis=1)[:, 0]
    w = np.ones(t.shape) if weight is None else weight.astype(np.float64)[safe]
    w = np.where(ignored, 0.0, w)
    loss = -picked * w
    if reduction == "none":
        return loss.astype(log_prob.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=log_prob.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):  # every sample ignored: 0 / 0 is NaN
        return np.asarray(loss.sum() / w.sum(), dtype=log_prob.dtype)


@kernel("ai.onnx", "NegativeLogLikelihoodLoss", since=12)
def negative_log_likelihood_loss(x: np.ndarray, target: np.ndarray, weight: np.ndarray | None, *,
                                 reduction: str, ignore_index: int | None) -> tuple[np.ndarray, ...]:
    return (weighted_nll(x, target, weight, reduction, ignore_index, "NegativeLogLikelihoodLoss"),)
