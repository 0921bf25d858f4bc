"""com.ms.internal.nhwc: each op draws as its twin (the onnx op of the same name and version; com.microsoft's for
QLinearAveragePool) with input 0 laid out channels last.

An op's YAML signature (`[N, *S, C]`) lets the generic builder draw the ops whose twins need no hint; where the twin
has one (a window that fits, Resize's scales, GridSample's grid, MaxUnpool's indices ...), that hint draws the case
channels first and `channels_last` moves input 0's channel axis last afterwards. The twin's value and attribute
hints see input 0 channels first, as they were written to; a value hint of input 0 itself is transposed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, ValueHint, set_input_shape

DOMAIN = "com.ms.internal.nhwc"
# ops whose twin already takes channels-last input itself (an attribute says which layout): its hint as it is
OWN_LAYOUT_TWINS = {"QLinearAveragePool": "com.microsoft"}


def twin_domain(op: str) -> str:
    return OWN_LAYOUT_TWINS.get(op, "ai.onnx")


_MADE: dict[tuple[int, str, str], tuple[OpHint, OpHint]] = {}


def channels_last(hint: OpHint, op: str, x: str) -> OpHint:
    """The twin's `hint` for nhwc `op`, whose input 0 is named `x` (see the module doc); made once per hint."""
    made = _MADE.get((id(hint), op, x))
    if made is None or made[0] is not hint:
        made = _MADE[(id(hint), op, x)] = (hint, _made(hint, op, x))
    return made[1]


def _made(hint: OpHint, op: str, x: str) -> OpHint:
    twin_shapes = hint.shapes
    if op in OWN_LAYOUT_TWINS or twin_shapes is None:
        return hint  # the YAML's channels-last signature (or the twin's own layout attribute) draws it

    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        twin_shapes(draw, ctx)
        shape = ctx.shapes.get(x)
        if shape is not None and len(shape) >= 2:
            set_input_shape(ctx, x, [shape[0], *shape[2:], shape[1]])

    return replace(hint, shapes=shapes,
                   attributes={name: _channels_first_view(fn, x, name) for name, fn in hint.attributes.items()},
                   values={name: _channels_first_view(fn, x, name) for name, fn in hint.values.items()})


def _channels_first_view(fn: ValueHint, x: str, name: str) -> ValueHint:
    def run(draw: DrawFn, ctx: DrawContext) -> Any:
        shape = ctx.shapes.get(x)
        last = isinstance(shape, list) and len(shape) >= 2
        if isinstance(shape, list) and last:
            ctx.shapes[x] = [shape[0], shape[-1], *shape[1:-1]]
        try:
            value = fn(draw, ctx)
        finally:
            ctx.shapes[x] = shape
        if name == x and last and isinstance(value, np.ndarray) and value.ndim >= 2:
            value = np.ascontiguousarray(np.moveaxis(value, 1, -1))
        return value

    return run
