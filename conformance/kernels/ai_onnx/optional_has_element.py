"""OptionalHasElement: whether the optional holds a value, as a bool scalar (from 18 the input may be omitted,
which is an empty optional, and a tensor or sequence holds one)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "OptionalHasElement", since=15, exact_types=True)  # data moves as it is: no widening
def optional_has_element(input: Any) -> tuple[np.ndarray, ...]:
    return (np.array(input is not None),)
