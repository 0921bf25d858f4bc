"""Cast: to the element type `to` names (a DataType name at opset 1, its number from 6). Into the types ml_dtypes
holds (float8, float8e8m0, float4, float6, int4, int2) the rules of `_narrow` apply, with `saturate` (19) and
`round_mode` (24, float8e8m0 only); from them, values widen exactly first. To and from strings (opset 9 on) as
`_strings` writes and reads them."""

from __future__ import annotations

import numpy as np

from conformance.element_types import ML_FLOATS, ML_INTEGERS
from conformance.kernels.ai_onnx._common import convert_elements, numpy_dtype_of
from conformance.kernels.ai_onnx._narrow import to_narrow, widened
from conformance.kernels.ai_onnx._strings import from_strings, to_strings
from conformance.kernels.registry import kernel
from opset.dtypes import CODE_TO_ELEMENT


def cast_to(op: str, x: np.ndarray, element: str, *, saturate: int = 1, round_mode: str = "up") -> np.ndarray:
    """Cast's conversion of `x` to the ONNX element type `element`."""
    x = widened(x)
    if element == "string":
        return to_strings(x)
    if x.dtype.kind == "O":
        x = from_strings(op, x, element)  # the numbers, in a type that converts to `element` exactly
    if element in ML_FLOATS or element in ML_INTEGERS:
        return to_narrow(x, element, saturate=bool(saturate), round_mode=round_mode)
    return convert_elements(x, numpy_dtype_of(op, element))


def _element(to: int) -> str:
    if to not in CODE_TO_ELEMENT:
        raise ValueError(f"Cast: {to} is no TensorProto DataType")
    return CODE_TO_ELEMENT[to]


@kernel("ai.onnx", "Cast", since=1, until=5, exact_types=True)
def cast_named(input: np.ndarray, *, to: str) -> tuple[np.ndarray, ...]:
    return (cast_to("Cast", input, to.lower()),)


@kernel("ai.onnx", "Cast", since=6, until=18, exact_types=True)
def cast(input: np.ndarray, *, to: int) -> tuple[np.ndarray, ...]:
    return (cast_to("Cast", input, _element(to)),)


@kernel("ai.onnx", "Cast", since=19, until=23, exact_types=True)
def cast_saturate(input: np.ndarray, *, to: int, saturate: int) -> tuple[np.ndarray, ...]:
    return (cast_to("Cast", input, _element(to), saturate=saturate),)


@kernel("ai.onnx", "Cast", since=24, exact_types=True)
def cast_round_mode(input: np.ndarray, *, to: int, saturate: int, round_mode: str) -> tuple[np.ndarray, ...]:
    return (cast_to("Cast", input, _element(to), saturate=saturate, round_mode=round_mode),)
