"""CastLike: Cast to the element type of `target_type` (its values do not matter), with Cast's rules (strings
as Cast converts them)."""

from __future__ import annotations

import numpy as np

from conformance.element_types import element_of
from conformance.kernels.ai_onnx.cast import cast_to
from conformance.kernels.registry import kernel


def _cast_like(input: np.ndarray, target_type: np.ndarray, saturate: int = 1, round_mode: str = "up") -> np.ndarray:
    element = element_of(target_type.dtype)
    if element is None:
        raise ValueError(f"CastLike: target_type of dtype {target_type.dtype} is no ONNX element type")
    return cast_to("CastLike", input, element, saturate=saturate, round_mode=round_mode)


@kernel("ai.onnx", "CastLike", since=15, until=18, exact_types=True)
def cast_like(input: np.ndarray, target_type: np.ndarray) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type),)


@kernel("ai.onnx", "CastLike", since=19, until=23, exact_types=True)
def cast_like_saturate(input: np.ndarray, target_type: np.ndarray, *, saturate: int) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type, saturate),)


@kernel("ai.onnx", "CastLike", since=24, exact_types=True)
def cast_like_round_mode(input: np.ndarray, target_type: np.ndarray, *, saturate: int,
                         round_mode: str) -> tuple[np.ndarray, ...]:
    return (_cast_like(input, target_type, saturate, round_mode),)
