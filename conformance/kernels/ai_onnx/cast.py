"""Cast: to the element type `to` names (a DataType name at opset 1, its number from 6); to and from strings as
`_strings` describes (from opset 9); float8 targets are issue 10's (Unsupported here), so `saturate` and
`round_mode`, which only concern float8, change nothing."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import (
    convert_elements,
    numpy_dtype_of,
    numpy_dtype_of_code,
    numpy_element_dtype,
)
from conformance.kernels.ai_onnx._strings import cast_elements
from conformance.kernels.registry import kernel


def _cast(input: np.ndarray, to: int) -> np.ndarray:
    numpy_element_dtype("Cast", input.dtype)
    return cast_elements("Cast", input, numpy_dtype_of_code("Cast", to))


@kernel("ai.onnx", "Cast", since=1, until=5)
def cast_named(input: np.ndarray, *, to: str) -> tuple[np.ndarray, ...]:
    numpy_element_dtype("Cast", input.dtype)
    return (convert_elements(input, numpy_dtype_of("Cast", to.lower())),)


@kernel("ai.onnx", "Cast", since=6, until=18)
def cast(input: np.ndarray, *, to: int) -> tuple[np.ndarray, ...]:
    return (_cast(input, to),)


@kernel("ai.onnx", "Cast", since=19, until=23)
def cast_saturate(input: np.ndarray, *, to: int, saturate: int) -> tuple[np.ndarray, ...]:
    return (_cast(input, to),)


@kernel("ai.onnx", "Cast", since=24)
def cast_round_mode(input: np.ndarray, *, to: int, saturate: int, round_mode: str) -> tuple[np.ndarray, ...]:
    return (_cast(input, to),)
