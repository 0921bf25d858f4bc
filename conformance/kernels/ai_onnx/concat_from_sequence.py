"""ConcatFromSequence: the sequence's tensors joined along `axis` (numpy's concatenate), or stacked along a
new axis at `axis` when new_axis is 1 (numpy's stack)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._sequence import same_element_type
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "ConcatFromSequence", since=11, exact_types=True)  # data moves as it is: no widening
def concat_from_sequence(input_sequence: list[np.ndarray], *, axis: int, new_axis: int) -> tuple[np.ndarray, ...]:
    if not input_sequence:
        raise ValueError("ConcatFromSequence: the sequence is empty")
    same_element_type("ConcatFromSequence", input_sequence, "the sequence")
    rank = input_sequence[0].ndim + new_axis
    if not -rank <= axis < rank:
        raise ValueError(f"ConcatFromSequence: axis {axis} is outside [{-rank}, {rank - 1}]")
    if new_axis:
        return (np.stack(input_sequence, axis=axis),)
    return (np.concatenate(input_sequence, axis=axis),)
