"""BitCast: the same bits read as the element type `to` names, which must have the input's width; little endian.
A sub-byte type (int4, uint4, float4e2m1, int2, uint2) is its bit pattern in the low bits of one byte."""

from __future__ import annotations

import numpy as np

from conformance.element_types import SUB_BYTE_BITS, bit_width, element_of
from conformance.kernels.ai_onnx._common import numpy_dtype_of_code
from conformance.kernels.registry import kernel
from opset.dtypes import CODE_TO_ELEMENT


@kernel("ai.onnx", "BitCast", since=26, exact_types=True)
def bit_cast(input: np.ndarray, *, to: int) -> tuple[np.ndarray, ...]:
    source = element_of(input.dtype)
    if source is None or source == "string":
        raise ValueError(f"BitCast: {input.dtype} has no fixed bit width")
    target = numpy_dtype_of_code("BitCast", to)
    element = CODE_TO_ELEMENT[to]
    if bit_width(element) != bit_width(source):
        raise ValueError(f"BitCast: {source} has {bit_width(source)} bits, {element} {bit_width(element)}: "
                         "the widths must be equal")
    if source in SUB_BYTE_BITS:
        pattern = input.view(np.uint8) & np.uint8((1 << bit_width(source)) - 1)
        return (pattern.view(target).copy(),)
    little = np.asarray(input, dtype=input.dtype.newbyteorder("<"))
    return (little.view(target.newbyteorder("<")).astype(target),)
