"""SequenceMap: `body` run once per tensor of `input_sequence`, fed the i-th tensor of every sequence input and
every tensor input as it is; its k-th output over the runs makes the k-th output sequence."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx", "SequenceMap", since=17, exact_types=True)  # values reach the body as they are
def sequence_map(input_sequence: list[np.ndarray], *additional_inputs: Any, body: Any) -> tuple[Any, ...]:
    count = len(input_sequence)
    for k, extra in enumerate(additional_inputs):
        if isinstance(extra, list) and len(extra) != count:
            raise ValueError(f"SequenceMap: additional input {k} holds {len(extra)} tensors, input_sequence {count}")
    outputs: list[list[Any]] = [[] for _ in body.output_names]
    for i in range(count):
        samples = [x[i] if isinstance(x, list) else x for x in additional_inputs]
        results = body(input_sequence[i], *samples)
        for collected, value in zip(outputs, results, strict=True):
            collected.append(value)
    return tuple(outputs)
