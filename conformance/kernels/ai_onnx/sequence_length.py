"""SequenceLength: how many tensors the sequence holds, as an int64 scalar."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceLength", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_length(input_sequence: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    return (np.array(len(input_sequence), dtype=np.int64),)
