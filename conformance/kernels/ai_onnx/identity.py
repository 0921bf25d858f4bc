"""Identity: a copy of the input: a tensor, a sequence (from 14) or an optional (from 16; None when empty)."""

from __future__ import annotations

from typing import Any

from conformance.kernels.ai_onnx._sequence import copy_value
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Identity", since=1, exact_types=True)  # data moves as it is: no widening
def identity(x: Any) -> tuple[Any, ...]:
    return (copy_value(x),)
