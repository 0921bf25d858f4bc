"""Constant: the one value attribute that is set, as a tensor."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from onnx import SparseTensorProto, TensorProto, numpy_helper

from conformance.kernels.registry import kernel


def _tensor(value: Any) -> np.ndarray:
    if isinstance(value, TensorProto):
        return numpy_helper.to_array(value)
    return np.array(value)


def _sparse(value: Any) -> np.ndarray:
    if not isinstance(value, SparseTensorProto):
        raise ValueError(f"Constant: sparse_value must be a SparseTensorProto, got {type(value).__name__}")
    values = numpy_helper.to_array(value.values)
    indices = numpy_helper.to_array(value.indices).astype(np.int64)
    dims = tuple(value.dims)
    dense = np.zeros(math.prod(dims), dtype=values.dtype)
    if indices.ndim == 2:  # [NNZ, rank] coordinates
        indices = np.ravel_multi_index(tuple(indices.T), dims)
    dense[indices.reshape(-1)] = values.reshape(-1)
    return dense.reshape(dims)


_MAKERS: dict[str, Callable[[Any], np.ndarray]] = {
    "value": _tensor,
    "sparse_value": _sparse,
    "value_float": lambda v: np.array(v, dtype=np.float32),
    "value_floats": lambda v: np.array(list(v), dtype=np.float32).reshape(-1),
    "value_int": lambda v: np.array(v, dtype=np.int64),
    "value_ints": lambda v: np.array(list(v), dtype=np.int64).reshape(-1),
    "value_string": lambda v: np.array(v.decode() if isinstance(v, bytes) else v, dtype=object),
    "value_strings": lambda v: np.array([s.decode() if isinstance(s, bytes) else s for s in v], dtype=object),
}


@kernel("ai.onnx", "Constant", since=1, until=10)
def constant_v1(*, value: Any) -> tuple[np.ndarray, ...]:
    return _one_of(value=value)


@kernel("ai.onnx", "Constant", since=11, until=11)
def constant_v11(*, value: Any, sparse_value: Any) -> tuple[np.ndarray, ...]:
    return _one_of(value=value, sparse_value=sparse_value)


@kernel("ai.onnx", "Constant", since=12)
def constant(*, value: Any, sparse_value: Any, value_float: float | None, value_floats: list[float] | None,
             value_int: int | None, value_ints: list[int] | None, value_string: str | None,
             value_strings: list[str] | None) -> tuple[np.ndarray, ...]:
    return _one_of(value=value, sparse_value=sparse_value, value_float=value_float, value_floats=value_floats,
                   value_int=value_int, value_ints=value_ints, value_string=value_string,
                   value_strings=value_strings)


def _one_of(**attrs: Any) -> tuple[np.ndarray, ...]:
    """The tensor of the one value attribute that is set."""
    given = [k for k, v in attrs.items() if v is not None]
    if len(given) != 1:
        raise ValueError(f"Constant: exactly one value attribute must be set, got {given or 'none'}")
    return (_MAKERS[given[0]](attrs[given[0]]),)
