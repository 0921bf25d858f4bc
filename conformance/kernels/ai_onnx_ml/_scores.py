"""Score post-transforms shared by the ai.onnx.ml classifiers and regressors (not kernels themselves).

The transforms are those onnxruntime applies (its `ml_common.h`), which is what models converted by
skl2onnx, onnxmltools and hummingbird are checked against:

- LOGISTIC: 1 / (1 + exp(-x));
- SOFTMAX: softmax over the scores of one row;
- SOFTMAX_ZERO: softmax over the nonzero scores of one row; a score within 1e-7 of zero is not exponentiated
  and adds nothing to the sum (it becomes 0 / sum); a row of zeros gives 0 / 0 = NaN;
- PROBIT: sqrt(2) * erfinv(2x - 1), with the closed-form approximation of erfinv that onnxruntime uses
  (Winitzki's, a = 0.147), in single precision: probit(0) = -inf, probit(1) = inf, outside [0, 1] NaN.

The other transforms compute in double precision; callers cast to the output type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

POST_TRANSFORMS = ("NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT")  # TreeEnsemble's ints index this
_ERFINV_A = 0.147


def as_array(value: Any, dtype: Any = None) -> np.ndarray | None:
    """An attribute as a flat numpy array: a list, a numpy array or an onnx TensorProto (None stays None)."""
    if value is None:
        return None
    if not isinstance(value, np.ndarray | list | tuple):
        from onnx import numpy_helper

        value = numpy_helper.to_array(value)
    arr = np.asarray(value).reshape(-1)
    return arr.astype(dtype) if dtype is not None else arr


def floats(value: Any) -> np.ndarray | None:
    """A float attribute as double-precision values: a `floats` list holds single-precision values (a node stores
    them in 32 bits), a tensor keeps its own precision."""
    if value is None:
        return None
    if isinstance(value, list | tuple):
        return np.asarray(value, dtype=np.float32).astype(np.float64)
    arr = as_array(value)
    assert arr is not None
    return arr.astype(np.float64)


def first_given(op: str, *pairs: tuple[str, Any]) -> np.ndarray | None:
    """The one attribute of `pairs` (an attribute and its `_as_tensor` twin) that is given, as `floats` reads it."""
    given = [(name, value) for name, value in pairs if value is not None]
    if len(given) > 1:
        raise ValueError(f"{op}: {' and '.join(name for name, _ in given)} are both given; at most one may be")
    return floats(given[0][1]) if given else None


def logistic(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(1.0 / (1.0 + np.exp(-x)))


def probit(x: np.ndarray) -> np.ndarray:
    """sqrt(2) * erfinv(2x - 1) with onnxruntime's approximation of erfinv, evaluated in single precision as
    onnxruntime evaluates it whatever the output type (the approximation cancels digits: double precision would
    differ from it by up to ~1e-4 relative)."""
    f = np.float32
    y = f(2.0) * np.asarray(x, dtype=f) - f(1.0)
    sign = np.where(y < 0, f(-1.0), f(1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        log = np.log((f(1.0) - y) * (f(1.0) + y))
        v = f(2.0) / (f(np.pi) * f(_ERFINV_A)) + f(0.5) * log
        inner = -v + np.sqrt(v * v - f(1.0) / f(_ERFINV_A) * log)
        return np.asarray(f(np.sqrt(2.0)) * sign * np.sqrt(inner)).astype(np.float64)


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax of each row of a 2-D array."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def softmax_zero(scores: np.ndarray) -> np.ndarray:
    """Softmax of each row over its nonzero scores (|s| > 1e-7); a zero score becomes 0 / sum. As onnxruntime
    computes it, a NaN score is neither the row's maximum nor part of the sum (it stays NaN)."""
    nonzero = np.abs(scores) > 1e-7
    lowest = -float(np.finfo(np.float32).max)  # onnxruntime's starting maximum
    top = np.where(np.isnan(scores), lowest, scores).max(axis=1, keepdims=True, initial=lowest)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        values = np.where(nonzero, np.exp(scores - top), scores * np.exp(-top))
        total = np.where(nonzero, values, 0.0).sum(axis=1, keepdims=True)
        return np.asarray(values / total)


def transform_rows(scores: np.ndarray, post_transform: str) -> np.ndarray:
    """`post_transform` applied to 2-D scores whose rows hold two or more values."""
    if post_transform == "NONE":
        return scores
    if post_transform == "LOGISTIC":
        return logistic(scores)
    if post_transform == "SOFTMAX":
        return softmax(scores)
    if post_transform == "SOFTMAX_ZERO":
        return softmax_zero(scores)
    if post_transform == "PROBIT":
        return probit(scores)
    raise ValueError(f"unknown post_transform {post_transform!r}")


def single_score(scores: np.ndarray, post_transform: str) -> np.ndarray:
    """A single score per row, as onnxruntime treats it: only PROBIT transforms it (a softmax over one value
    would be 1, and onnxruntime leaves LOGISTIC out as well)."""
    return probit(scores) if post_transform == "PROBIT" else scores


def binary_pair(score: np.ndarray, post_transform: str, *, negated: bool) -> np.ndarray:
    """[N, 2] from one score s per row, as onnxruntime completes a binary classifier's scores: LOGISTIC gives
    [logistic(-s), logistic(s)], any other transform [-s, s] (`negated`) or [1 - s, s]; PROBIT gives probit(s)
    and nothing for the second (onnxruntime leaves it unwritten: 0 here)."""
    if post_transform == "PROBIT":
        return np.stack([probit(score), np.zeros_like(score)], axis=1)
    if post_transform == "LOGISTIC":
        return np.stack([logistic(-score), logistic(score)], axis=1)
    return np.stack([-score if negated else 1.0 - score, score], axis=1)


def labels_array(labels: Sequence[Any], index: np.ndarray) -> np.ndarray:
    """The class labels at `index`: int64, or a numpy object array of str for string labels."""
    if labels and isinstance(labels[0], str):
        table = np.empty(len(labels), dtype=object)
        table[:] = list(labels)
        return np.asarray(table[index], dtype=object)
    return np.asarray(np.asarray(labels, dtype=np.int64)[index], dtype=np.int64)


def class_labels(op: str, ints: Sequence[int] | None, strings: Sequence[str] | None) -> list[Any]:
    """The one given list of class labels (ints or strings)."""
    if (ints is None) == (strings is None):
        raise ValueError(f"{op}: exactly one of the integer and string class labels must be given")
    labels = list(ints) if ints is not None else [str(s) for s in strings or ()]
    if len(labels) < 1:
        raise ValueError(f"{op}: the class labels are empty")
    return labels


def two_dims(op: str, x: np.ndarray) -> np.ndarray:
    """X as [N, F] (the schema's shape)."""
    if x.ndim != 2:
        raise ValueError(f"{op}: X must have rank 2 ([N, F]), it has shape {list(x.shape)}")
    return x
