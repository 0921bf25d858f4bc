"""SequenceEmpty: a sequence with no tensors (`dtype` types it for a model; a Python list carries no type)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceEmpty", since=11)
def sequence_empty(*, dtype: int) -> tuple[list[np.ndarray], ...]:
    return ([],)
