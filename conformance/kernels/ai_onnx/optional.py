"""Optional: an optional holding the input, or an empty one (None) without it (`type` then types it for a
model; the value carries nothing of it)."""

from __future__ import annotations

from typing import Any

from conformance.kernels.ai_onnx._sequence import copy_value
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Optional", since=15, exact_types=True)  # data moves as it is: no widening
def optional(input: Any, *, type: Any) -> tuple[Any, ...]:
    return (copy_value(input),)
