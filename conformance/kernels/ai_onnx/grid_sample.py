"""GridSample (16, 20, 22): X sampled at the normalised positions of grid (PyTorch's grid_sample, as onnxruntime
and onnx.reference compute it).

grid[n, o..., k] is the k-th coordinate counted from the innermost spatial axis. Per spatial axis of length L a
coordinate g in [-1, 1] becomes x = (g + 1) / 2 * (L - 1) (align_corners = 1) or ((g + 1) * L - 1) / 2 (0). nearest
first rounds x half to even. A coordinate outside [lo, hi] = [0, L - 1] (align_corners = 1) or [-0.5, L - 0.5]
(0) is clamped to [0, L - 1] (border; cubic excepted, as in PyTorch and onnxruntime: its four taps are clamped
one by one) or reflected into [lo, hi] (reflection). Then each tap (the rounded
position; the 2 linear or 4 cubic neighbours of floor(x), cubic with Keys' a = -0.75) reads 0 outside the image
(zeros), the nearest edge pixel (border) or the reflected pixel (reflection). Version 16 names the modes bilinear
and bicubic and samples 2-D images only; version 20 names them linear and cubic and samples any rank.
Integer and bool outputs take the computed value truncated toward zero (ONNX's Cast), saturated at the type's
bounds; float16 and float compute in float32. A string tensor samples in nearest mode only (the others need
arithmetic), a tap outside reading the empty string.
"""

from __future__ import annotations

import itertools

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype, zero_of, zeros_of
from conformance.kernels.registry import kernel

CUBIC_A = -0.75


def reflect(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """x folded back into [lo, hi] by reflections at its ends (lo when the interval is a point)."""
    span = hi - lo
    if span <= 0:
        return np.full_like(x, lo)
    below, above = x < lo, x > hi
    dx = np.where(below, lo - x, np.where(above, x - hi, 0))
    turns = np.trunc(dx / span)
    rest = dx - turns * span
    even = turns % 2 == 0
    folded_low = np.where(even, lo + rest, hi - rest)
    folded_high = np.where(even, hi - rest, lo + rest)
    return np.asarray(np.where(below, folded_low, np.where(above, folded_high, x)))


def _cubic_weights(t: np.ndarray) -> list[np.ndarray]:
    """Keys' cubic convolution weights of the taps at floor(x) - 1 ... floor(x) + 2, t = x - floor(x)."""
    a = CUBIC_A

    def near(s: np.ndarray) -> np.ndarray:  # |s| <= 1
        return np.asarray(((a + 2) * s - (a + 3)) * s * s + 1)

    def far(s: np.ndarray) -> np.ndarray:  # 1 < |s| < 2
        return np.asarray(((a * s - 5 * a) * s + 8 * a) * s - 4 * a)

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


class _Axis:
    """One spatial axis: its length and the padding rule for its taps."""

    def __init__(self, length: int, align_corners: int, padding_mode: str) -> None:
        self.length = length
        self.lo, self.hi = (0.0, length - 1.0) if align_corners else (-0.5, length - 0.5)
        self.padding_mode = padding_mode

    def position(self, g: np.ndarray, align_corners: int, mode: str) -> np.ndarray:
        """The grid coordinate in pixels, rounded (nearest), then clamped (border, but not for cubic, whose taps are
        clamped one by one) or reflected when outside [lo, hi]."""
        one = g.dtype.type(1)
        if align_corners:
            x = (g + one) / g.dtype.type(2) * g.dtype.type(self.length - 1)
        else:
            x = ((g + one) * g.dtype.type(self.length) - one) / g.dtype.type(2)
        if mode == "nearest":
            x = np.rint(x)
        outside = (x < self.lo) | (x > self.hi)
        if self.padding_mode == "border" and mode != "cubic":
            x = np.where(outside, np.clip(x, 0, self.length - 1), x)
        elif self.padding_mode == "reflection":
            x = np.where(outside, reflect(x, self.lo, self.hi), x)
        return np.asarray(x)

    def tap(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(index inside the axis, mask of taps that read a pixel: None when every tap does)."""
        if self.padding_mode == "zeros":
            inside = (index >= 0) & (index < self.length)
            return np.where(inside, index, 0), inside
        if self.padding_mode == "border":
            return np.clip(index, 0, self.length - 1), None
        folded = np.trunc(reflect(index.astype(np.float64), self.lo, self.hi)).astype(np.int64)
        return np.clip(folded, 0, self.length - 1), None


def _grid_sample(x: np.ndarray, grid: np.ndarray, mode: str, padding_mode: str, align_corners: int,
                 max_rank: int | None) -> tuple[np.ndarray, ...]:
    if x.dtype.kind == "c":  # sampling is linear in X: the real and imaginary parts sample alike
        (real,) = _grid_sample(x.real.copy(), grid, mode, padding_mode, align_corners, max_rank)
        (imag,) = _grid_sample(x.imag.copy(), grid, mode, padding_mode, align_corners, max_rank)
        return (np.asarray(real + 1j * imag).astype(x.dtype),)
    r = x.ndim - 2
    if r < 1 or (max_rank is not None and r > max_rank):
        most = "any number of" if max_rank is None else f"1 to {max_rank}"
        raise ValueError(f"GridSample: X has {r} spatial axes, this version samples {most}")
    if grid.shape[0] != x.shape[0] or grid.ndim != r + 2 or grid.shape[-1] != r:
        raise ValueError(f"GridSample: grid {grid.shape} does not fit X {x.shape} (N x out... x {r} expected)")
    if mode not in ("linear", "nearest", "cubic"):
        raise ValueError(f"GridSample: unknown mode {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"GridSample: unknown padding_mode {padding_mode!r}")
    strings = x.dtype.kind == "O"
    if strings and mode != "nearest":
        raise ValueError(f"GridSample: {mode} interpolation of strings is undefined (only nearest picks strings)")
    if x.dtype.kind not in "fiubO":
        raise ValueError(f"GridSample: element type {x.dtype} is not supported")
    wt = x.dtype if strings else work_dtype(x) if x.dtype.kind == "f" else np.dtype(np.float64)
    coords = grid.astype(work_dtype(grid), copy=False)
    axes = [_Axis(x.shape[2 + d], align_corners, padding_mode) for d in range(r)]
    # positions per spatial axis d (outermost first): grid's coordinate r - 1 - d
    pos = [axes[d].position(coords[..., r - 1 - d], align_corners, mode) for d in range(r)]
    data = x.astype(wt, copy=False)
    batch = np.arange(x.shape[0]).reshape((-1,) + (1,) * (grid.ndim - 2))
    out = zeros_of((x.shape[0], *grid.shape[1:-1], x.shape[1]), wt)  # channels last while gathering

    def gather(indices: list[np.ndarray]) -> np.ndarray:
        taps = [axes[d].tap(indices[d]) for d in range(r)]
        values = data.transpose(0, *range(2, x.ndim), 1)[(batch, *(t[0] for t in taps))]
        masks = [t[1] for t in taps if t[1] is not None]
        if masks:  # a tap outside reads zero (the empty string in a string tensor)
            values = np.where(np.logical_and.reduce(masks)[..., None], values, zero_of(wt))
        return np.asarray(values)

    if mode == "nearest":
        out += gather([np.trunc(p).astype(np.int64) for p in pos])
    else:
        base = [np.floor(p) for p in pos]
        frac = [(p - b).astype(wt) for p, b in zip(pos, base, strict=True)]
        if mode == "linear":
            weights = [[1 - f, f] for f in frac]
            offsets = [0, 1]
        else:
            weights = [[w.astype(wt) for w in _cubic_weights(f)] for f in frac]
            offsets = [-1, 0, 1, 2]
        starts = [b.astype(np.int64) for b in base]
        for combo in itertools.product(range(len(offsets)), repeat=r):
            w = np.prod([weights[d][k] for d, k in enumerate(combo)], axis=0)
            out += w[..., None] * gather([starts[d] + offsets[k] for d, k in enumerate(combo)])
    y = np.moveaxis(out, -1, 1)
    if strings:
        return (np.ascontiguousarray(y),)
    if x.dtype.kind == "f":
        return (y.astype(x.dtype, copy=False),)
    if x.dtype == np.bool_:
        return (y != 0,)
    info = np.iinfo(x.dtype)
    return (np.clip(np.trunc(y), info.min, info.max).astype(x.dtype),)


V16_MODES = {"bilinear": "linear", "nearest": "nearest", "bicubic": "cubic"}


@kernel("ai.onnx", "GridSample", since=16, until=19)
def grid_sample_v16(x: np.ndarray, grid: np.ndarray, *, align_corners: int, mode: str,
                    padding_mode: str) -> tuple[np.ndarray, ...]:
    if mode not in V16_MODES:
        raise ValueError(f"GridSample: version 16 modes are bilinear, nearest and bicubic, got {mode!r}")
    return _grid_sample(x, grid, V16_MODES[mode], padding_mode, align_corners, max_rank=2)


@kernel("ai.onnx", "GridSample", since=20)
def grid_sample(x: np.ndarray, grid: np.ndarray, *, align_corners: int, mode: str,
                padding_mode: str) -> tuple[np.ndarray, ...]:
    return _grid_sample(x, grid, mode, padding_mode, align_corners, max_rank=None)
