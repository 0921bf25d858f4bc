"""SequenceConstruct: a sequence of the input tensors, in order."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._sequence import copy_value, same_element_type
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceConstruct", since=11, exact_types=True)  # data moves as it is: no widening
def sequence_construct(*inputs: np.ndarray) -> tuple[Any, ...]:
    tensors = list(inputs)
    same_element_type("SequenceConstruct", tensors, "the inputs")
    return ([copy_value(t) for t in tensors],)
