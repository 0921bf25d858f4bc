"""Squeeze: drop size-1 axes (all of them when `axes` is absent); axes attribute before 13, input after."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _squeeze(data: np.ndarray, axes: Sequence[int] | None) -> np.ndarray:
    if axes is None or len(axes) == 0:
        return data.reshape([d for d in data.shape if d != 1])
    ax = normalize_axes("Squeeze", axes, data.ndim)
    bad = [a for a in ax if data.shape[a] != 1]
    if bad:
        raise ValueError(f"Squeeze: axes {bad} of shape {data.shape} are not of size 1")
    return data.reshape([d for i, d in enumerate(data.shape) if i not in ax])


@kernel("ai.onnx", "Squeeze", since=1, until=12)
def squeeze_attr(data: np.ndarray, *, axes: list[int] | None) -> tuple[np.ndarray, ...]:
    return (_squeeze(data, axes).copy(),)


@kernel("ai.onnx", "Squeeze", since=13)
def squeeze(data: np.ndarray, axes: np.ndarray | None) -> tuple[np.ndarray, ...]:
    return (_squeeze(data, None if axes is None else np.asarray(axes).reshape(-1).tolist()).copy(),)
