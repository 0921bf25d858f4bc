"""BitCast: the same bytes read as the element type `to` names, which must have the input's width; little endian."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import numpy_dtype_of_code, numpy_element_dtype
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "BitCast", since=26)
def bit_cast(input: np.ndarray, *, to: int) -> tuple[np.ndarray, ...]:
    numpy_element_dtype("BitCast", input.dtype)
    target = numpy_dtype_of_code("BitCast", to)
    if target.itemsize != input.dtype.itemsize:
        raise ValueError(f"BitCast: {input.dtype} has {input.dtype.itemsize * 8} bits, {target} "
                         f"{target.itemsize * 8}: the widths must be equal")
    little = np.asarray(input, dtype=input.dtype.newbyteorder("<"))
    return (little.view(target.newbyteorder("<")).astype(target),)
