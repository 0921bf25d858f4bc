"""LinearClassifier: scores = X coefficients^T + intercepts (X read in single precision, as onnxruntime reads it),
one row of coefficients per class, or a single row for two classes.

Several rows: Y is the first class of highest score and Z the scores after post_transform. A single row (two
labels): Y is the second label where the score s > 0, else the first, and Z is [1 - s, s] as onnxruntime writes
it ([logistic(-s), logistic(s)] with LOGISTIC; with PROBIT onnxruntime leaves the second score unwritten).
multi_class changes nothing (onnxruntime and onnx.reference ignore it).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import (
    binary_pair,
    class_labels,
    floats,
    labels_array,
    transform_rows,
    two_dims,
)
from conformance.kernels.registry import kernel

OP = "LinearClassifier"


@kernel("ai.onnx.ml", OP, since=1)
def linear_classifier(X: np.ndarray, *, classlabels_ints: list[int] | None, classlabels_strings: list[str] | None,
                      coefficients: list[float], intercepts: list[float] | None, multi_class: int,
                      post_transform: str) -> tuple[np.ndarray, ...]:
    del multi_class  # see the module doc
    x = two_dims(OP, X).astype(np.float32).astype(np.float64)
    labels = class_labels(OP, classlabels_ints, classlabels_strings)
    coef = floats(coefficients)
    assert coef is not None  # required
    features = x.shape[1]
    if features == 0 or coef.size % features:
        raise ValueError(f"{OP}: {coef.size} coefficients are not whole rows of {features} features")
    rows = coef.size // features
    if not (rows == len(labels) or (rows == 1 and len(labels) == 2)):
        raise ValueError(f"{OP}: {rows} rows of coefficients for {len(labels)} classes")
    bias = floats(intercepts)
    if bias is not None and bias.size != rows:
        raise ValueError(f"{OP}: {bias.size} intercepts for {rows} rows of coefficients")
    scores = x @ coef.reshape(rows, features).T + (bias[None, :] if bias is not None else 0.0)
    if rows == 1:
        s = scores[:, 0]
        y = labels_array(labels, (s > 0).astype(np.int64))
        return y, binary_pair(s, post_transform, negated=False).astype(np.float32)
    return labels_array(labels, scores.argmax(axis=1)), transform_rows(scores, post_transform).astype(np.float32)
