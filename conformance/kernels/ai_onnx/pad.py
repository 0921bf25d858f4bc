"""Pad: pads as an attribute (opset 1 `paddings`, 2 `pads`) or an input (11+, with axes from 18).

Modes constant, reflect, edge and (from 19) wrap; negative pads crop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes, zero_of
from conformance.kernels.registry import kernel

_MODES = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}


def _pad(data: np.ndarray, pads: Sequence[int], mode: str, value: float | np.ndarray,
         axes: Sequence[int] | None) -> np.ndarray:
    if mode not in _MODES:
        raise ValueError(f"Pad: mode must be one of {sorted(_MODES)}, got {mode!r}")
    ax = tuple(range(data.ndim)) if axes is None else normalize_axes("Pad", axes, data.ndim)
    if len(pads) != 2 * len(ax):
        raise ValueError(f"Pad: pads has {len(pads)} values, expected {2 * len(ax)} for axes {list(ax)}")
    begin = [0] * data.ndim
    end = [0] * data.ndim
    for i, a in enumerate(ax):
        begin[a], end[a] = int(pads[i]), int(pads[i + len(ax)])
    # negative pads crop first; the remaining non-negative pads are then filled
    crop = tuple(slice(max(-b, 0), d - max(-e, 0)) for b, e, d in zip(begin, end, data.shape, strict=True))
    x = data[crop]
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end, strict=True)]
    if not any(b or e for b, e in widths):
        return x.copy()
    if mode == "constant":
        out = np.full([d + b + e for d, (b, e) in zip(x.shape, widths, strict=True)],
                      np.asarray(value).astype(data.dtype), dtype=data.dtype)
        out[tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, widths, strict=True))] = x
        return out
    for a, (b, e) in enumerate(widths):
        if (b or e) and x.shape[a] == 0:
            raise ValueError(f"Pad: mode {mode} cannot pad empty axis {a}")
        if mode == "reflect" and (b or e) and max(b, e) >= x.shape[a]:
            raise ValueError(f"Pad: reflect pads {b, e} must be smaller than axis {a} of size {x.shape[a]}")
    np_mode: Any = _MODES[mode]
    return np.pad(x, widths, mode=np_mode)


@kernel("ai.onnx", "Pad", since=1, until=1)
def pad_v1(data: np.ndarray, *, paddings: list[int] | None, mode: str, value: float) -> tuple[np.ndarray, ...]:
    if paddings is None:
        raise ValueError("Pad: attribute paddings is required in opset 1")
    return (_pad(data, paddings, mode, value, None),)


@kernel("ai.onnx", "Pad", since=2, until=10)
def pad_v2(data: np.ndarray, *, pads: list[int] | None, mode: str, value: float) -> tuple[np.ndarray, ...]:
    if pads is None:
        raise ValueError("Pad: attribute pads is required in opset 2")
    return (_pad(data, pads, mode, value, None),)


@kernel("ai.onnx", "Pad", since=11, until=17)
def pad_v11(data: np.ndarray, pads: np.ndarray, constant_value: np.ndarray | None, *,
            mode: str) -> tuple[np.ndarray, ...]:
    return pad(data, pads, constant_value, None, mode=mode)  # the axes input comes at opset 18


@kernel("ai.onnx", "Pad", since=18)
def pad(data: np.ndarray, pads: np.ndarray, constant_value: np.ndarray | None, axes: np.ndarray | None, *,
        mode: str) -> tuple[np.ndarray, ...]:
    # without constant_value: 0, False, or the empty string for a string tensor (the op's text says so)
    value = np.asarray(zero_of(data.dtype), dtype=data.dtype) if constant_value is None else \
        np.asarray(constant_value).reshape(())
    ax = None if axes is None else np.asarray(axes).reshape(-1).tolist()
    return (_pad(data, np.asarray(pads).reshape(-1).tolist(), mode, value, ax),)
