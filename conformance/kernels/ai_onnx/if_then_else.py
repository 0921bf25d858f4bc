"""If: the outputs of `then_branch` when the single-element `cond` is true, else those of `else_branch`."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._control import Body, single
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "If", since=1, exact_types=True)  # values pass through to the branches as they are
def if_then_else(cond: np.ndarray, *, else_branch: Body, then_branch: Body) -> tuple[Any, ...]:
    branch = then_branch if bool(single(cond, "If's condition")) else else_branch
    return tuple(branch())
