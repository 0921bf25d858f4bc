"""Split: parts along `axis` of the given lengths, else of equal size: as many as the node has outputs (before
opset 18, which must divide the axis evenly) or `num_outputs` of ceil(size / num_outputs), the last one smaller."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import normalize_axes
from conformance.kernels.registry import kernel


def _split(input: np.ndarray, axis: int, lengths: Sequence[int]) -> tuple[np.ndarray, ...]:
    (a,) = normalize_axes("Split", [axis], input.ndim)
    if any(n < 0 for n in lengths) or sum(lengths) != input.shape[a]:
        raise ValueError(f"Split: lengths {list(lengths)} must be >= 0 and add up to {input.shape[a]} (axis {a})")
    cuts = np.cumsum(lengths)[:-1]
    return tuple(part.copy() for part in np.split(input, cuts, axis=a))


def _equal(input: np.ndarray, axis: int, parts: int) -> list[int]:
    (a,) = normalize_axes("Split", [axis], input.ndim)
    if parts < 1 or input.shape[a] % parts:
        raise ValueError(f"Split: size {input.shape[a]} of axis {a} does not divide into {parts} equal parts")
    return [input.shape[a] // parts] * parts


def _ints(x: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(x).reshape(-1)]


@kernel("ai.onnx", "Split", since=1, until=1, requested_outputs=True)
def split_1(input: np.ndarray, split_input: np.ndarray | None, *, axis: int, split: list[int] | None,
            requested_outputs: int) -> tuple[np.ndarray, ...]:
    if split is not None and split_input is not None:
        raise ValueError("Split: give the lengths as the split attribute or the split input, not both")
    lengths = split if split is not None else _ints(split_input) if split_input is not None else None
    return _split(input, axis, lengths if lengths is not None else _equal(input, axis, requested_outputs))


@kernel("ai.onnx", "Split", since=2, until=12, requested_outputs=True)
def split_attr(input: np.ndarray, *, axis: int, split: list[int] | None,
               requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _split(input, axis, split if split is not None else _equal(input, axis, requested_outputs))


@kernel("ai.onnx", "Split", since=13, until=17, requested_outputs=True)
def split_input(input: np.ndarray, split: np.ndarray | None, *, axis: int,
                requested_outputs: int) -> tuple[np.ndarray, ...]:
    return _split(input, axis, _ints(split) if split is not None else _equal(input, axis, requested_outputs))


@kernel("ai.onnx", "Split", since=18, requested_outputs=True)
def split_18(input: np.ndarray, split: np.ndarray | None, *, axis: int, num_outputs: int | None,
             requested_outputs: int) -> tuple[np.ndarray, ...]:
    if split is not None and num_outputs is None:
        return _split(input, axis, _ints(split))
    if split is None and num_outputs is not None:
        if num_outputs < 1:
            raise ValueError(f"Split: num_outputs is {num_outputs}, it must be >= 1")
        (a,) = normalize_axes("Split", [axis], input.ndim)
        size = input.shape[a]
        chunk = -(-size // num_outputs)  # ceil: every part but the last has this size
        return _split(input, axis, [chunk] * (num_outputs - 1) + [size - chunk * (num_outputs - 1)])
    raise ValueError("Split: give either the split input or num_outputs, not both and not neither")
