"""Inputs the optimizer tests share: R and T scalars and groups of tensors of two shapes."""

from __future__ import annotations

from typing import Any

import numpy as np

from opset.model import OpVersion
from tests.helpers import inferred

DOMAIN = "ai.onnx.preview.training"


def tensors(groups: int, dtype: type = np.float32, seed: int = 5) -> list[np.ndarray]:
    """`groups` groups of two tensors, shapes [2, 3] and [4], in the order the optimizers take them."""
    rng = np.random.default_rng(seed)
    shapes = [(2, 3), (4,)]
    out = []
    for k in range(groups):
        for shape in shapes:
            values = rng.uniform(-2, 2, size=shape)
            out.append(np.abs(values).astype(dtype) if k == groups - 1 else values.astype(dtype))  # H >= 0
    return out


def scalars(r: float = 0.1, t: int = 3, dtype: type = np.float32) -> list[np.ndarray]:
    return [np.array(r, dtype), np.array(t, np.int64)]


def output_shapes(v: OpVersion, inputs: list[np.ndarray], attrs: dict[str, Any], count: int) -> list[list[int]]:
    """The registry's output shapes for a node with `count` outputs; fails on any reported problem."""
    result = inferred(v, inputs, attrs, output_count=count)
    assert not result.problems, result.problems
    return [[int(str(d)) for d in shape] for shape in result.outputs]
