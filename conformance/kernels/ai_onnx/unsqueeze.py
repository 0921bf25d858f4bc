"""Unsqueeze: insert size-1 axes at `axes` of the output (attribute before opset 13, input from 13)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _unsqueeze(data: np.ndarray, axes: Sequence[int] | None) -> np.ndarray:
    if axes is None:
        raise ValueError("Unsqueeze: axes is required")
    rank = data.ndim + len(axes)
    inserted = set(normalize_axes("Unsqueeze", axes, rank))
    dims = iter(data.shape)
    return data.reshape([1 if i in inserted else next(dims) for i in range(rank)]).copy()


@kernel("ai.onnx", "Unsqueeze", since=1, until=12)
def unsqueeze_attr(data: np.ndarray, *, axes: list[int] | None) -> tuple[np.ndarray, ...]:
    return (_unsqueeze(data, axes),)


@kernel("ai.onnx", "Unsqueeze", since=13)
def unsqueeze(data: np.ndarray, axes: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_unsqueeze(data, np.asarray(axes).reshape(-1).tolist()),)
