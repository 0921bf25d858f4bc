"""What SVMClassifier and SVMRegressor share (not kernels): the kernel functions and libsvm's pairwise coupling.

kernel_params is [gamma, coef0, degree] (all 0 when absent): LINEAR x.v, POLY (gamma x.v + coef0)^degree,
RBF exp(-gamma |x - v|^2), SIGMOID tanh(gamma x.v + coef0).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

KERNEL_TYPES = ("LINEAR", "POLY", "RBF", "SIGMOID")


def kernel_matrix(op: str, x: np.ndarray, vectors: np.ndarray, kernel_type: str,
                  kernel_params: Sequence[float] | None) -> np.ndarray:
    """[N, V]: the kernel between every row of x [N, F] and every vector [V, F]."""
    gamma, coef0, degree = (float(v) for v in np.asarray(kernel_params if kernel_params else [0.0, 0.0, 0.0],
                                                         dtype=np.float32)[:3])
    if x.shape[1] != vectors.shape[1]:
        raise ValueError(f"{op}: X has {x.shape[1]} features, the vectors {vectors.shape[1]}")
    if kernel_type == "RBF":
        diff = x[:, None, :] - vectors[None, :, :]
        return np.asarray(np.exp(-gamma * (diff * diff).sum(axis=2)))
    dot = x @ vectors.T
    if kernel_type == "LINEAR":
        return np.asarray(dot)
    if kernel_type == "POLY":
        with np.errstate(invalid="ignore", over="ignore"):
            return np.asarray(np.power(gamma * dot + coef0, degree))
    if kernel_type == "SIGMOID":
        return np.asarray(np.tanh(gamma * dot + coef0))
    raise ValueError(f"{op}: unknown kernel_type {kernel_type!r}")


def pairwise_coupling(pairs: np.ndarray) -> np.ndarray:
    """Class probabilities [N, k] from pairwise ones: `pairs[:, i, j]` is P(i | i or j). libsvm's method 2 of Wu,
    Lin and Weng, iterated as onnxruntime iterates it: single precision, at most 100 rounds, a row stopping once
    every |(Qp)_i - p'Qp| < 0.005 / k."""
    r = pairs.astype(np.float32)
    n, k = r.shape[0], r.shape[1]
    q = np.zeros((n, k, k), dtype=np.float32)
    for i in range(k):
        for j in range(k):
            if j != i:
                q[:, i, i] += r[:, j, i] * r[:, j, i]
                q[:, i, j] = -r[:, j, i] * r[:, i, j]
    p = np.full((n, k), np.float32(1.0) / np.float32(k), dtype=np.float32)
    eps = np.float32(0.005) / np.float32(k)
    active = np.ones(n, dtype=bool)
    for _ in range(100):
        qp = np.zeros((n, k), dtype=np.float32)
        for j in range(k):  # the sums in onnxruntime's order
            qp += q[:, :, j] * p[:, j:j + 1]
        pqp = np.zeros(n, dtype=np.float32)
        for i in range(k):
            pqp += p[:, i] * qp[:, i]
        active &= np.abs(qp - pqp[:, None]).max(axis=1) >= eps
        if not active.any():
            break
        rows = np.flatnonzero(active)
        pa, qpa, pqpa, qa = p[rows], qp[rows], pqp[rows], q[rows]
        for i in range(k):
            diff = (-qpa[:, i] + pqpa) / qa[:, i, i]
            pa[:, i] += diff
            scale = np.float32(1.0) + diff
            pqpa = (pqpa + diff * (diff * qa[:, i, i] + np.float32(2.0) * qpa[:, i])) / scale / scale
            qpa = (qpa + diff[:, None] * qa[:, i, :]) / scale[:, None]
            pa = pa / scale[:, None]
        p[rows] = pa
    return p
