"""ConstantOfShape: a tensor of the shape given by `input`, filled with the one element of `value` (float32 0)."""

from __future__ import annotations

from typing import Any

import numpy as np
from onnx import TensorProto, numpy_helper

from conformance.kernels.registry import kernel


def _fill_value(value: Any) -> np.ndarray:
    if value is None:
        return np.zeros((), dtype=np.float32)
    arr = numpy_helper.to_array(value) if isinstance(value, TensorProto) else np.asarray(value)
    if arr.size != 1:
        raise ValueError(f"ConstantOfShape: value must hold exactly one element, it holds {arr.size}")
    return arr.reshape(())


@kernel("ai.onnx", "ConstantOfShape", since=9)
def constant_of_shape(input: np.ndarray, *, value: Any) -> tuple[np.ndarray, ...]:
    shape = np.asarray(input)
    if shape.ndim != 1:
        raise ValueError(f"ConstantOfShape: input must be 1-D, it has shape {list(shape.shape)}")
    dims = [int(d) for d in shape]
    if any(d < 0 for d in dims):
        raise ValueError(f"ConstantOfShape: negative dim in shape {dims}")
    fill = _fill_value(value)
    return (np.full(dims, fill, dtype=fill.dtype),)
