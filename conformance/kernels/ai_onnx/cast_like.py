"""CastLike: Cast to the element type of `target_type` (its values do not matter), strings as Cast converts them;
`saturate` and `round_mode` only concern float8 targets, which are issue 10's."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import numpy_element_dtype
from conformance.kernels.ai_onnx._strings import cast_elements
from conformance.kernels.registry import kernel


def _cast_like(input: np.ndarray, target_type: np.ndarray) -> np.ndarray:
    numpy_element_dtype("CastLike", input.dtype)
    return cast_elements("CastLike", input, numpy_element_dtype("CastLike", target_type.dtype))


@kernel("ai.onnx", "CastLike", since=15, until=18)
def cast_like(input: np.ndarray, target_type: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type),)


@kernel("ai.onnx", "CastLike", since=19, until=23)
def cast_like_saturate(input: np.ndarray, target_type: np.ndarray, *, saturate: int) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type),)


@kernel("ai.onnx", "CastLike", since=24)
def cast_like_round_mode(input: np.ndarray, target_type: np.ndarray, *, saturate: int,
                         round_mode: str) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type),)
