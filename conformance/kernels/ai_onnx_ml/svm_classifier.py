"""SVMClassifier: libsvm's one-vs-one SVC when vectors_per_class names support vectors, else liblinear's one
linear model per class; X is read in single precision, as onnxruntime reads it.

SVC: for every pair of classes i < j (in that order), the decision value
sum_i coefficients[j-1, sv of i] K(x, sv) + sum_j coefficients[i, sv of j] K(x, sv) + rho[pair]; a positive value
votes for i, any other for j, and Y is the first class with most votes. With prob_a/prob_b, the pairwise
probabilities P(i | i or j) = 1 / (1 + exp(decision * prob_a + prob_b)), clipped to [1e-7, 1 - 1e-7], are coupled
into class probabilities (Z, one per class); without them Z holds the decision values, one per pair, and for two
classes the pair [-d, d] (post_transform NONE), [logistic(-d), logistic(d)] (LOGISTIC) or [1 - d, d].
Linear: Z = X coefficients^T + rho[0] (one column per class), Y the first class of highest score; for two classes
the positive label wins when that score is >= 0.5 (all coefficients >= 0) or > 0.
post_transform then applies across Z's columns.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import (
    binary_pair,
    class_labels,
    floats,
    labels_array,
    logistic,
    transform_rows,
    two_dims,
)
from conformance.kernels.ai_onnx_ml._svm import kernel_matrix, pairwise_coupling
from conformance.kernels.registry import kernel

OP = "SVMClassifier"


def _svc(x: np.ndarray, labels: list[object], vectors_per_class: list[int], support_vectors: np.ndarray,
         coefficients: np.ndarray, rho: np.ndarray, kernel_type: str, kernel_params: list[float] | None,
         prob_a: np.ndarray | None, prob_b: np.ndarray | None, post_transform: str) -> tuple[np.ndarray, np.ndarray]:
    k = len(labels)
    counts = np.asarray(vectors_per_class, dtype=np.int64)
    if counts.size != k or (counts < 0).any():
        raise ValueError(f"{OP}: vectors_per_class {vectors_per_class} must give a count >= 0 for each of {k} classes")
    total = int(counts.sum())
    starts = np.concatenate([[0], np.cumsum(counts)])
    if support_vectors.size != total * x.shape[1] or coefficients.size != (k - 1) * total:
        raise ValueError(f"{OP}: {support_vectors.size} support_vectors values and {coefficients.size} coefficients "
                         f"do not fit {total} vectors of {x.shape[1]} features and {k} classes")
    pairs = k * (k - 1) // 2
    if rho.size != pairs:
        raise ValueError(f"{OP}: rho has {rho.size} values for {pairs} pairs of classes")
    kernels = kernel_matrix(OP, x, support_vectors.reshape(total, x.shape[1]), kernel_type, kernel_params)
    coef = coefficients.reshape(k - 1, total)
    decisions = np.zeros((x.shape[0], pairs))
    votes = np.zeros((x.shape[0], k), dtype=np.int64)
    index = 0
    for i in range(k - 1):
        own = slice(starts[i], starts[i + 1])
        for j in range(i + 1, k):
            other = slice(starts[j], starts[j + 1])
            d = kernels[:, own] @ coef[j - 1, own] + kernels[:, other] @ coef[i, other] + rho[index]
            decisions[:, index] = d
            votes[:, i] += d > 0
            votes[:, j] += ~(d > 0)
            index += 1
    y = labels_array(labels, votes.argmax(axis=1))
    decisions = decisions.astype(np.float32)
    if prob_a is not None and prob_a.size:
        if prob_b is None or prob_a.size != pairs or prob_b.size != pairs:
            raise ValueError(f"{OP}: prob_a and prob_b need one value per pair of classes ({pairs})")
        a, b = prob_a.astype(np.float32), prob_b.astype(np.float32)
        probability = np.clip(logistic(-(decisions * a + b)).astype(np.float32), 1e-7, 1 - 1e-7)
        pairwise = np.zeros((x.shape[0], k, k), dtype=np.float32)
        index = 0
        for i in range(k - 1):
            for j in range(i + 1, k):
                pairwise[:, i, j] = probability[:, index]
                pairwise[:, j, i] = 1 - probability[:, index]
                index += 1
        return y, transform_rows(pairwise_coupling(pairwise).astype(np.float64), post_transform)
    if k > 2:
        return y, transform_rows(decisions.astype(np.float64), post_transform)
    return y, binary_pair(decisions[:, 0].astype(np.float64), post_transform, negated=post_transform == "NONE")


def _linear(x: np.ndarray, labels: list[object], coefficients: np.ndarray, rho: np.ndarray,
            post_transform: str) -> tuple[np.ndarray, np.ndarray]:
    k = len(labels)
    if coefficients.size != k * x.shape[1]:
        raise ValueError(f"{OP}: {coefficients.size} coefficients for {k} classes of {x.shape[1]} features")
    if rho.size < 1:
        raise ValueError(f"{OP}: rho must hold the intercept")
    scores = x @ coefficients.reshape(k, x.shape[1]).T + rho[0]
    best = scores.argmax(axis=1)
    if k == 2:
        top = scores.max(axis=1)
        positive = bool((coefficients >= 0).all())
        best = np.where((top >= 0.5) if positive else (top > 0), 1, best)
    return labels_array(labels, best), transform_rows(scores, post_transform)


@kernel("ai.onnx.ml", OP, since=1)
def svm_classifier(X: np.ndarray, *, classlabels_ints: list[int] | None, classlabels_strings: list[str] | None,
                   coefficients: list[float] | None, kernel_params: list[float] | None, kernel_type: str,
                   post_transform: str, prob_a: list[float] | None, prob_b: list[float] | None,
                   rho: list[float] | None, support_vectors: list[float] | None,
                   vectors_per_class: list[int] | None) -> tuple[np.ndarray, ...]:
    x = two_dims(OP, X).astype(np.float32).astype(np.float64)
    labels = class_labels(OP, classlabels_ints, classlabels_strings)
    if len(labels) < 2:
        raise ValueError(f"{OP}: there must be at least two classes")
    coef, intercepts = floats(coefficients), floats(rho)
    if coef is None or intercepts is None:
        raise ValueError(f"{OP}: coefficients and rho must be given")
    if vectors_per_class and sum(vectors_per_class) > 0:
        sv = floats(support_vectors)
        y, z = _svc(x, labels, list(vectors_per_class), sv if sv is not None else np.zeros(0), coef, intercepts,
                    kernel_type, kernel_params, floats(prob_a), floats(prob_b), post_transform)
    else:
        y, z = _linear(x, labels, coef, intercepts, post_transform)
    return y, z.astype(np.float32)
