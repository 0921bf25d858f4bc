"""Cast: to the element type `to` names (a DataType name at opset 1, its number from 6). Into the types ml_dtypes
holds (float8, float8e8m0, float4, float6, int4, int2) the rules of `_narrow` apply, with `saturate` (19) and
`round_mode` (24, float8e8m0 only); from them, values widen exactly first. To and from strings (opset 9 on) as
`_strings` writes and reads them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from conformance.element_types import ML_FLOATS, ML_INTEGERS, compute_dtype
from conformance.kernels.ai_onnx._common import convert_elements, numpy_dtype_of
from conformance.kernels.ai_onnx._narrow import to_narrow, widened
from conformance.kernels.ai_onnx._strings import from_strings, to_strings
from conformance.kernels.registry import RunKernel, kernel, reading_kernel
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


def _rounded_first(x: np.ndarray, rounding: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """`x` rounded to whole numbers by `rounding` in its own type (a whole number of a float's range is exact in it):
    the kernel's own conversion then has no fraction left to round."""
    if not isinstance(x, np.ndarray) or compute_dtype(x.dtype).kind != "f":
        return x
    return rounding(x.astype(np.float64)).astype(x.dtype)


@reading_kernel("ai.onnx", "Cast", "cast_r2")
def cast_ties_away_from_zero(inputs: Sequence[Any], attributes: Mapping[str, Any], run: RunKernel) -> tuple[Any, ...]:
    """onnxruntime's and OpenVINO's float -> int4/int2: the nearest integer, ties away from zero (2.5 to 3)."""
    return run([_rounded_first(inputs[0], lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)), *inputs[1:]])


@reading_kernel("ai.onnx", "Cast", "cast_r3")
def cast_toward_zero(inputs: Sequence[Any], attributes: Mapping[str, Any], run: RunKernel) -> tuple[Any, ...]:
    """onnx.reference's (ml_dtypes') float -> int4/int2: truncated toward zero (2.7 to 2)."""
    return run([_rounded_first(inputs[0], np.trunc), *inputs[1:]])
