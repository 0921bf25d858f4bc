"""Sliding-window geometry and helpers shared by the pooling and convolution kernels.

Arrays are N x C x spatial...; a window is described by kernel, strides, dilations and the padding before
and after each spatial axis. Helpers iterate over kernel taps (never over pixels): each tap is one strided
view of the padded input covering every output position.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


@dataclass(frozen=True)
class Window:
    """Geometry of a sliding window over the spatial axes (all tuples have one entry per spatial axis)."""

    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    begin: tuple[int, ...]  # padding before each axis
    end: tuple[int, ...]  # padding after each axis (explicit or automatic, without the ceil overhang)
    out: tuple[int, ...]

    def extent(self, i: int) -> int:
        """Number of input positions one window spans on axis i."""
        return (self.kernel[i] - 1) * self.dilations[i] + 1

    def padded_end(self, spatial: Sequence[int]) -> tuple[int, ...]:
        """Padding after each axis that makes every window fit (adds the ceil-mode overhang)."""
        return tuple(max(self.end[i], (self.out[i] - 1) * self.strides[i] + self.extent(i) - spatial[i]
                         - self.begin[i]) for i in range(len(spatial)))

    def taps(self) -> Iterator[tuple[int, ...]]:
        """Kernel taps in row-major order."""
        return itertools.product(*(range(k) for k in self.kernel))


def checked_ints(op: str, name: str, value: Sequence[int] | None, length: int, low: int) -> tuple[int, ...]:
    """`value` as ints, checked to have `length` entries of at least `low` (the schema supplies defaults)."""
    if value is None:
        raise ValueError(f"{op}: attribute {name} is missing")
    out = tuple(int(v) for v in value)
    if len(out) != length:
        raise ValueError(f"{op}: attribute {name} has {len(out)} values, expected {length}")
    if any(v < low for v in out):
        raise ValueError(f"{op}: attribute {name} values must be >= {low}, got {list(out)}")
    return out


def dense_dilations(x: np.ndarray) -> list[int]:
    """Dilations for the op versions that have no such attribute: every window is dense."""
    return [1] * max(x.ndim - 2, 0)


def make_window(op: str, spatial: Sequence[int], kernel_shape: Sequence[int] | None, *,
                strides: Sequence[int], dilations: Sequence[int], pads: Sequence[int], auto_pad: str,
                ceil_mode: int) -> Window:
    """Resolve padding and output size the ONNX way (ceil mode drops a window starting in the end padding).

    `pads` is read only when auto_pad is NOTSET.
    """
    r = len(spatial)
    if kernel_shape is None:
        raise ValueError(f"{op}: attribute kernel_shape is required")
    kernel = checked_ints(op, "kernel_shape", kernel_shape, r, 1)
    st = checked_ints(op, "strides", strides, r, 1)
    dil = checked_ints(op, "dilations", dilations, r, 1)
    if auto_pad not in AUTO_PADS:
        raise ValueError(f"{op}: auto_pad must be one of {AUTO_PADS}, got {auto_pad!r}")
    ext = [(kernel[i] - 1) * dil[i] + 1 for i in range(r)]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        out = [math.ceil(spatial[i] / st[i]) for i in range(r)]
        total = [max(0, (out[i] - 1) * st[i] + ext[i] - spatial[i]) for i in range(r)]
        small = [t // 2 for t in total]
        first = small if auto_pad == "SAME_UPPER" else [t - s for t, s in zip(total, small, strict=True)]
        last = [t - b for t, b in zip(total, first, strict=True)]
        return Window(kernel, st, dil, tuple(first), tuple(last), tuple(out))
    if auto_pad == "VALID":
        p = (0,) * (2 * r)
    else:
        p = checked_ints(op, "pads", pads, 2 * r, 0)
    begin, end = p[:r], p[r:]
    out = []
    for i in range(r):
        span = spatial[i] + begin[i] + end[i] - ext[i]
        if span < 0:
            raise ValueError(f"{op}: window of extent {ext[i]} exceeds padded axis {i} of size {span + ext[i]}")
        n = (-(-span // st[i]) if ceil_mode else span // st[i]) + 1
        if ceil_mode and (n - 1) * st[i] >= spatial[i] + begin[i]:
            n -= 1  # the last window would start inside the end padding
        out.append(n)
    return Window(kernel, st, dil, begin, end, tuple(out))


def pad_spatial(x: np.ndarray, begin: Sequence[int], end: Sequence[int], value: float | int) -> np.ndarray:
    """x with its trailing len(begin) axes padded by `value` (a copy only when padding is needed)."""
    r = len(begin)
    if not any(begin) and not any(end):
        return x
    lead = x.shape[: x.ndim - r]
    spatial = x.shape[x.ndim - r:]
    out = np.empty(lead + tuple(s + b + e for s, b, e in zip(spatial, begin, end, strict=True)), dtype=x.dtype)
    index: tuple[Any, ...] = (Ellipsis, *(slice(b, b + s) for b, s in zip(begin, spatial, strict=True)))
    out[index] = x
    # then only the border slabs take `value` (filling the whole array first wrote every element twice)
    for i, (s, b) in enumerate(zip(spatial, begin, strict=True)):
        axis = len(lead) + i
        before: list[Any] = [slice(None)] * out.ndim
        after: list[Any] = [slice(None)] * out.ndim
        before[axis], after[axis] = slice(0, b), slice(b + s, None)
        out[tuple(before)] = value
        out[tuple(after)] = value
    return out


def tap_view(xp: np.ndarray, w: Window, tap: Sequence[int]) -> np.ndarray:
    """The strided view of padded `xp` that tap `tap` reads for every output position."""
    index: tuple[Any, ...] = (Ellipsis, *(slice(t * d, t * d + (o - 1) * s + 1, s)
                                          for t, d, o, s in zip(tap, w.dilations, w.out, w.strides, strict=True)))
    view: np.ndarray = xp[index]
    return view


def separable_reduce(xp: np.ndarray, w: Window, ufunc: Callable[..., np.ndarray]) -> np.ndarray:
    """Reduce every window of padded `xp` with a binary ufunc (np.add, np.maximum), one spatial axis at a time.

    Valid for associative, commutative reductions over a box: the window is the product of 1-D windows.
    """
    r = len(w.kernel)
    y = xp
    for i in range(r):
        axis = y.ndim - r + i
        k, d, s, o = w.kernel[i], w.dilations[i], w.strides[i], w.out[i]

        def part(t: int, y: np.ndarray = y, axis: int = axis, d: int = d, s: int = s, o: int = o) -> np.ndarray:
            index = [slice(None)] * y.ndim
            index[axis] = slice(t * d, t * d + (o - 1) * s + 1, s)
            return y[tuple(index)]

        # the first two taps into a new array (one pass fewer than copying the first), the rest in place
        acc = np.array(part(0), copy=True) if k == 1 else ufunc(part(0), part(1))
        for t in range(2, k):
            ufunc(acc, part(t), out=acc)
        y = acc
    return y


def im2col(xp: np.ndarray, w: Window) -> np.ndarray:
    """Padded N x C x spatial input to columns N x C x prod(kernel) x prod(out)."""
    n, c = xp.shape[:2]
    k = math.prod(w.kernel)
    cols = np.empty((n, c, k, *w.out), dtype=xp.dtype)
    for j, tap in enumerate(w.taps()):
        cols[:, :, j] = tap_view(xp, w, tap)
    return cols.reshape(n, c, k, math.prod(w.out))


@dataclass(frozen=True)
class FlatImage:
    """A zero-padded N x C image stored flat per channel, for windows of unit stride.

    With unit strides, output position o reads input position o + tap * dilation; flattened row-major over the
    padded axes that is flat index `q + offset(tap)`, where q indexes a "wide" output spanning the whole padded
    extent of every axis but the first. So each tap reads one contiguous run of `length` values, and the wide
    result is cropped to the real output once (`crop`). The buffer ends with enough zeros for the last taps.
    """

    data: np.ndarray  # N x C x (prod(padded) + tail)
    padded: tuple[int, ...]  # padded spatial shape
    offsets: tuple[int, ...]  # flat offset of each kernel tap, row-major tap order
    length: int  # wide output length: out[0] * prod(padded[1:])

    def run(self, tap: int) -> np.ndarray:
        """N x C x length view: what tap `tap` reads for every wide output position."""
        start = self.offsets[tap]
        view: np.ndarray = self.data[:, :, start:start + self.length]
        return view

    def crop(self, wide: np.ndarray, w: Window) -> np.ndarray:
        """Lead... x length wide results as lead... x out (a view)."""
        shaped = wide.reshape(*wide.shape[:-1], w.out[0], *self.padded[1:])
        index: tuple[Any, ...] = (Ellipsis, slice(None), *(slice(0, o) for o in w.out[1:]))
        view: np.ndarray = shaped[index]
        return view


def flat_image(x: np.ndarray, w: Window, end: Sequence[int]) -> FlatImage:
    """x (N x C x spatial) zero-padded by w.begin / `end` into a FlatImage; `w` must have unit strides."""
    if any(s != 1 for s in w.strides):
        raise ValueError(f"flat_image: strides {list(w.strides)} are not all 1")
    spatial = x.shape[2:]
    padded = tuple(s + b + e for s, b, e in zip(spatial, w.begin, end, strict=True))
    row = [math.prod(padded[i + 1:]) for i in range(len(padded))]
    offsets = tuple(sum(t * d * s for t, d, s in zip(tap, w.dilations, row, strict=True)) for tap in w.taps())
    length = w.out[0] * row[0]
    total = math.prod(padded)
    data = np.zeros((*x.shape[:2], max(total, max(offsets) + length)), dtype=x.dtype)
    image = data[:, :, :total].reshape(*x.shape[:2], *padded)
    inside: tuple[Any, ...] = (Ellipsis, *(slice(b, b + s) for b, s in zip(w.begin, spatial, strict=True)))
    image[inside] = x
    return FlatImage(data, padded, offsets, length)
