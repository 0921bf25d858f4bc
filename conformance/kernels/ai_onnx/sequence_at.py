"""SequenceAt: a copy of the tensor at `position` (negative counts from the back)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._sequence import position_index
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceAt", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_at(input_sequence: list[np.ndarray], position: np.ndarray) -> tuple[np.ndarray, ...]:
    index = position_index("SequenceAt", position, len(input_sequence))
    return (np.array(input_sequence[index], copy=True),)
