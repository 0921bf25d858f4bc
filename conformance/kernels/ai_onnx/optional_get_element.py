"""OptionalGetElement: what the optional holds (from 18, a tensor or sequence passes through unchanged);
an empty optional is an error."""

from __future__ import annotations

from typing import Any

from conformance.kernels.ai_onnx._sequence import copy_value
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "OptionalGetElement", since=15, exact_types=True)  # data moves as it is: no widening
def optional_get_element(input: Any) -> tuple[Any, ...]:
    if input is None:
        raise ValueError("OptionalGetElement: the optional is empty")
    return (copy_value(input),)
