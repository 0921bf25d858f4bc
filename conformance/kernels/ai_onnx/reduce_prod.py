"""ReduceProd: product over `axes` (all when absent; 1 over an empty set); axes attribute before 18, input from 18.

Integer products wrap as the type's own two's-complement multiplication does; half precision multiplies in
float32.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import accumulator, reduction_axes
from conformance.kernels.registry import kernel


def _prod(data: np.ndarray, ax: tuple[int, ...], keepdims: int) -> np.ndarray:
    y = np.prod(data, axis=ax, keepdims=bool(keepdims), dtype=accumulator(data))
    with np.errstate(over="ignore"):  # a half-precision product beyond 65504 is infinite
        return np.asarray(y).astype(data.dtype)


@kernel("ai.onnx", "ReduceProd", since=1, until=17)
def reduce_prod_attr(data: np.ndarray, *, axes: list[int] | None, keepdims: int) -> tuple[np.ndarray, ...]:
    return (_prod(data, reduction_axes("ReduceProd", data.ndim, axes, 0), keepdims),)


@kernel("ai.onnx", "ReduceProd", since=18)
def reduce_prod(data: np.ndarray, axes: np.ndarray | None, *, keepdims: int,
                noop_with_empty_axes: int) -> tuple[np.ndarray, ...]:
    return (_prod(data, reduction_axes("ReduceProd", data.ndim, axes, noop_with_empty_axes), keepdims),)
