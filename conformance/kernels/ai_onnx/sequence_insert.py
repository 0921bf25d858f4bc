"""SequenceInsert: the sequence with `tensor` inserted before `position` (appended when it is omitted);
negative positions count from the back, so -1 inserts before the last tensor."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._sequence import copy_value, position_index, same_element_type
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceInsert", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_insert(input_sequence: list[np.ndarray], tensor: np.ndarray,
                    position: np.ndarray | None) -> tuple[Any, ...]:
    count = len(input_sequence)
    index = count if position is None else position_index("SequenceInsert", position, count, at_end=True)
    same_element_type("SequenceInsert", [*input_sequence, tensor], "the sequence and the inserted tensor")
    out = [copy_value(t) for t in input_sequence]
    out.insert(index, copy_value(tensor))
    return (out,)
