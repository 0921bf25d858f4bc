"""Loop: runs `body` while the trip count M is not reached and the condition holds.

Each iteration feeds the body (iteration number, condition, carried values...) and takes back (condition,
carried values..., scan-output values...). Without the `cond` input the body's condition output is ignored
(a for loop over M, as onnx's text says); without M the loop runs until the condition turns false. The
outputs are the final carried values, then each scan output's per-iteration values stacked along a new
first axis (an empty stack after zero iterations, shaped as the body declares that output).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx._control import single, stacked
from conformance.kernels.registry import kernel


@kernel("ai.onnx", "Loop", since=1, exact_types=True)  # values reach the body as they are
def loop(M: np.ndarray | None, cond: np.ndarray | None, *v_initial: Any, body: Any) -> tuple[Any, ...]:
    if M is None and cond is None:
        raise ValueError("a Loop without M and cond never ends (the body's condition is ignored)")
    limit = None if M is None else int(single(M, "Loop's trip count M"))
    running = True if cond is None else bool(single(cond, "Loop's condition"))
    carried = list(v_initial)
    n = len(carried)
    scans: list[list[Any]] | None = None
    condition = running
    iteration = 0
    while running and (limit is None or iteration < limit):
        outputs = body(np.array(iteration, dtype=np.int64), np.array(condition, dtype=np.bool_), *carried)
        if len(outputs) < 1 + n:
            raise ValueError(f"Loop's body gave {len(outputs)} outputs, it needs 1 + {n} at least")
        condition = bool(single(outputs[0], "the body's condition output"))
        carried = list(outputs[1:1 + n])
        if scans is None:
            scans = [[] for _ in outputs[1 + n:]]
        for values, value in zip(scans, outputs[1 + n:], strict=True):
            values.append(value)
        if cond is not None:
            running = condition
        iteration += 1
    declared = body.declared_outputs()
    if scans is None:
        scans = [[] for _ in declared[1 + n:]]
    return (*carried, *(stacked(values, 0, declared[1 + n + k]) for k, values in enumerate(scans)))
