"""SoftmaxCrossEntropyLoss (12, 13): log-softmax over the class axis, then the weighted negative log likelihood
(the same reduction rules as NegativeLogLikelihoodLoss). The second output is the log-probabilities."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.negative_log_likelihood_loss import weighted_nll
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SoftmaxCrossEntropyLoss", since=12)
def softmax_cross_entropy_loss(scores: np.ndarray, labels: np.ndarray, weights: np.ndarray | None, *,
                               reduction: str, ignore_index: int | None) -> tuple[np.ndarray, ...]:
    wide = scores.astype(np.float64)
    shifted = wide - wide.max(axis=1, keepdims=True)
    log_prob = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = weighted_nll(log_prob, labels, weights, reduction, ignore_index, "SoftmaxCrossEntropyLoss")
    return loss.astype(scores.dtype), log_prob.astype(scores.dtype)
