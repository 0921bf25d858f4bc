"""SequenceEmpty: a sequence with no tensors (`dtype` types it for a model; a Python list carries no type)."""

from __future__ import annotations

from typing import Any

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceEmpty", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_empty(*, dtype: int) -> tuple[Any, ...]:
    return ([],)
