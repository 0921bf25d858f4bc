"""com.microsoft Pad: onnx's Pad with pads (and the value) as inputs, before ai.onnx Pad-11 took them so.

`pads` is [2 * r] or [1, 2 * r] (begins, then ends); an axis of length d becomes d + begin + end long (never
negative), output position o reading input position o - begin. In constant mode a position outside the input
is `value` (a scalar or a one-element tensor; 0 when absent), so a crop larger than the axis is simply filled.
reflect and edge first crop by the negative pads, then mirror about the edge element (at most extent - 1 on each
side) or repeat it; as onnxruntime does, they refuse an input whose cropping leaves an axis empty.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


def _source(d: int, begin: int, end: int, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Input index each output position reads along one axis, and whether it reads one (constant mode)."""
    n = d + begin + end
    if n < 0:
        raise ValueError(f"Pad: pads {begin}, {end} crop more than an axis of {d} holds")
    if mode == "constant":
        src = np.arange(n) - begin
        inside = (src >= 0) & (src < d)
        return np.clip(src, 0, max(d - 1, 0)), inside
    lo, hi = max(-begin, 0), d - max(-end, 0)
    kept = hi - lo
    if kept <= 0:
        if d > 0:
            raise ValueError(f"Pad: mode {mode} with an axis cropped to nothing (length {d}, pads {begin}, {end})")
        if n > 0:
            raise ValueError(f"Pad: mode {mode} cannot pad an empty axis")
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    rel = np.arange(n) - max(begin, 0)  # position within the kept part
    if mode == "edge":
        rel = np.clip(rel, 0, kept - 1)
    else:
        if max(begin, 0) > kept - 1 or max(end, 0) > kept - 1:
            raise ValueError(f"Pad: reflect pads {begin}, {end} exceed {kept - 1}, the kept length {kept} minus 1")
        rel = np.where(rel < 0, -rel, np.where(rel >= kept, 2 * (kept - 1) - rel, rel))
    return rel + lo, np.ones(n, dtype=bool)


@kernel("com.microsoft", "Pad", since=1)
def pad(data: np.ndarray, pads: np.ndarray, value: np.ndarray | None, *, mode: str) -> tuple[np.ndarray, ...]:
    if mode not in ("constant", "reflect", "edge"):
        raise ValueError(f"Pad: mode must be constant, reflect or edge, got {mode!r}")
    p = np.asarray(pads)
    if not (p.ndim == 1 or (p.ndim == 2 and p.shape[0] == 1)) or p.size != 2 * data.ndim:
        raise ValueError(f"Pad: pads must be [2 * rank] or [1, 2 * rank] = {2 * data.ndim} values, got {p.shape}")
    if data.ndim == 0:
        raise ValueError("Pad: data must have rank 1 or more")
    if value is not None and np.asarray(value).size != 1:
        raise ValueError(f"Pad: value must hold one element, got shape {np.asarray(value).shape}")
    flat = [int(v) for v in p.reshape(-1).tolist()]
    r = data.ndim
    axes = [_source(d, flat[a], flat[a + r], mode) for a, d in enumerate(data.shape)]
    shape = tuple(len(src) for src, _ in axes)
    fill = np.zeros((), dtype=data.dtype) if value is None else np.asarray(value).reshape(()).astype(data.dtype)
    if data.size == 0 or 0 in shape:  # nothing to read: constant mode fills, the others have no element
        return (np.full(shape, fill, dtype=data.dtype),)
    out = data[np.ix_(*(src for src, _ in axes))]
    inside = np.ones(shape, dtype=bool)
    for a, (_, ok) in enumerate(axes):
        inside &= ok.reshape([-1 if i == a else 1 for i in range(r)])
    return (np.where(inside, out, fill).astype(data.dtype),)
