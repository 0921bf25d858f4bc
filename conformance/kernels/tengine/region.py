"""Region (tengine, op id 19): Darknet YOLOv2's region activations (logistic x, y and objectness, class softmax)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _sigmoid(v: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(1 / (1 + np.exp(-v)))


@kernel("tengine", "Region", since=1)
def region(x: np.ndarray, *, num_classes: int, side: int, num_box: int, coords: int, confidence_threshold: float,
           nms_threshold: float, biases: list[float] | None) -> tuple[np.ndarray, ...]:
    # side, the thresholds and biases are read by later detection code, not by this op.
    if x.ndim != 4:
        raise ValueError(f"Region: input must be NCHW (rank 4), got shape {x.shape}")
    n, c, h, w = x.shape
    entries = coords + num_classes + 1
    if coords != 4 or num_box < 1 or c != num_box * entries:
        raise ValueError(f"Region: {c} channels must be num_box * (coords + num_classes + 1) with coords 4")
    work = x.astype(np.promote_types(x.dtype, np.float32), copy=False).reshape(n, num_box, entries, h, w)
    y = work.copy()
    y[:, :, 0:2] = _sigmoid(work[:, :, 0:2])
    y[:, :, coords] = _sigmoid(work[:, :, coords])
    if num_classes:
        scores = work[:, :, coords + 1:]
        shifted = np.exp(scores - scores.max(axis=2, keepdims=True))
        y[:, :, coords + 1:] = shifted / shifted.sum(axis=2, keepdims=True)
    return (y.reshape(x.shape).astype(x.dtype, copy=False),)
