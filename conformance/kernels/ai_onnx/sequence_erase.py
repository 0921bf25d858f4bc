"""SequenceErase: the sequence without the tensor at `position` (the last one when `position` is omitted)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._sequence import copy_value, position_index
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceErase", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_erase(input_sequence: list[np.ndarray], position: np.ndarray | None) -> tuple[Any, ...]:
    count = len(input_sequence)
    if count == 0:
        raise IndexError("SequenceErase: the sequence is empty")
    index = count - 1 if position is None else position_index("SequenceErase", position, count)
    return ([copy_value(t) for i, t in enumerate(input_sequence) if i != index],)
