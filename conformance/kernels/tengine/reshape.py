"""Reshape (tengine, op id 23): reshapes to `re_shape`, with MXNet's special values 0, -1, -2, -3 and -4."""

from __future__ import annotations

import math

import numpy as np

from conformance.kernels.registry import kernel


def target_shape(shape: tuple[int, ...], re_shape: list[int], copy_zero: bool, reverse: bool) -> list[int]:
    """Tengine's infer_shape: 0 copies a dim (or 1 in front for Caffe), -2 copies the rest, -3 merges two, -4 takes
    its two operands as they are."""
    out: list[int] = []
    at = 0  # the input dim the next entry refers to
    i = 0
    while i < len(re_shape):
        v = re_shape[i]
        if v == 0:
            if copy_zero:
                out.append(shape[at])
            elif i == 0:
                out.append(1)
            at += 1
        elif v == -2:
            out.extend(shape[at:])
            at = len(shape)
        elif v == -3:
            out.append(shape[at] * shape[at + 1])
            at += 2
        elif v == -4:
            if i + 2 >= len(re_shape):
                raise ValueError(f"Reshape: -4 at entry {i} of {re_shape} needs two operands")
            out.extend([1 if re_shape[i + 1] == -1 else re_shape[i + 1], re_shape[i + 2]])
            i += 2
            at += 1
        elif v == -1 or v > 0:
            out.append(v)
            at += 1
        else:
            raise ValueError(f"Reshape: value {v} in re_shape is not supported (only 0, -1, -2, -3, -4 and sizes)")
        i += 1
    if out.count(-1) > 1:
        raise ValueError(f"Reshape: re_shape {re_shape} leaves more than one dim to infer")
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        out[out.index(-1)] = math.prod(shape) // known if known else 0
    return out[::-1] if reverse else out


@kernel("tengine", "Reshape", since=1)
def reshape(x: np.ndarray, shape: np.ndarray | None, *, is_mxnet: int, reverse: int, re_shape: list[int] | None,
            is_onnx: int) -> tuple[np.ndarray, ...]:
    # A second `shape` input (ONNX graphs keep it) is ignored: Tengine reads the shape from the parameters.
    if not re_shape:
        raise ValueError("Reshape: re_shape is empty")
    out = target_shape(x.shape, list(re_shape), bool(is_mxnet or is_onnx), bool(reverse))
    if math.prod(out) != x.size:
        raise ValueError(f"Reshape: {x.shape} has {x.size} elements, the new shape {out} {math.prod(out)}")
    return (x.reshape(out).copy(),)
