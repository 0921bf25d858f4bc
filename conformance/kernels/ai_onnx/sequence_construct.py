"""SequenceConstruct: a sequence of the input tensors, in order."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._sequence import copy_value, same_element_type
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceConstruct", since=11)
def sequence_construct(*inputs: np.ndarray) -> tuple[list[np.ndarray], ...]:
    tensors = list(inputs)
    same_element_type("SequenceConstruct", tensors, "the inputs")
    return ([copy_value(t) for t in tensors],)
