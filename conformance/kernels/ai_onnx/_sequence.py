"""What the sequence and optional kernels share: a position read and checked, a value copied whole."""

from __future__ import annotations

from typing import Any

import numpy as np


def position_index(op: str, position: np.ndarray, count: int, *, at_end: bool = False) -> int:
    """A scalar `position` (or a 1-D tensor of one value, as onnx's node test gives it) as a list index from the
    front: negative counts from the back. Valid positions are [-count, count - 1], and `count` too where `at_end`
    (SequenceInsert's append position)."""
    array = np.asarray(position)
    if array.shape not in ((), (1,)) or array.dtype.kind not in "iu":
        raise ValueError(f"{op}: position must be an integer scalar, got {array.dtype}{list(array.shape)}")
    p = int(array.reshape(()))
    top = count if at_end else count - 1
    if not -count <= p <= top:
        raise IndexError(f"{op}: position {p} is outside [{-count}, {top}] for a sequence of {count} tensors")
    return p + count if p < 0 else p


def copy_value(value: Any) -> Any:
    """A tensor, a sequence of values or an optional (None when empty), copied so no output aliases an input."""
    if value is None:
        return None
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    return np.array(value, copy=True)


def same_element_type(op: str, tensors: list[np.ndarray], what: str) -> None:
    """Every tensor of a sequence has one element type (`what` names the newcomer in the message)."""
    kinds = {np.asarray(t).dtype for t in tensors}
    if len(kinds) > 1:
        raise TypeError(f"{op}: {what} mixes element types {sorted(str(k) for k in kinds)}")
