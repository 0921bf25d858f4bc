"""com.ms.internal.nhwc: each op draws as its twin (the op of the same name and version the kernel runs,
`conformance.kernels.com_ms_internal_nhwc.channels_last.TWINS`) with input 0 then laid out channels last.

The twin's own YAML domains (and its hint, where it keeps one) say what its valid inputs look like; they read its
channels-first dims, so the nhwc op takes the twin's whole draw and moves input 0's channel axis last (a twin with
a layout attribute of its own, com.microsoft's QLinearAveragePool, is drawn as it is). What the twin lacks (the
fused `activation` and its `activation_params`) is drawn from the nhwc op's own YAML afterwards.
"""

from __future__ import annotations

import numpy as np

from conformance.strategies.context import DrawContext
from opset.model import OpVersion

DOMAIN = "com.ms.internal.nhwc"
LAYOUT_ATTRIBUTE = "channels_last"  # a twin that has it lays input 0 out itself


def twin_of(version: OpVersion) -> OpVersion | None:
    """The version whose draws an nhwc `version` takes, or None (not an nhwc op, or one without a twin)."""
    if version.domain != DOMAIN:
        return None
    from conformance.kernels.com_ms_internal_nhwc.channels_last import TWINS
    from conformance.registry import current_registry

    entry = TWINS.get(version.name)
    if entry is None or version.since not in entry[0]:
        return None
    return current_registry().op(entry[1], version.name).version(version.since)


def lay_out(twin_ctx: DrawContext, ctx: DrawContext) -> None:
    """Copy the twin's draw into the nhwc op's `ctx`: every input and attribute both have, input 0 channels last."""
    twin = twin_ctx.version
    moved = LAYOUT_ATTRIBUTE not in twin.attributes
    first = ctx.version.inputs[0].name
    names = {p.name for p in twin.inputs}
    for param in ctx.version.inputs:
        if param.name not in names:
            continue
        shape, array = twin_ctx.shapes.get(param.name), twin_ctx.arrays.get(param.name)
        if moved and param.name == first and isinstance(array, np.ndarray) and array.ndim >= 2:
            array = np.ascontiguousarray(np.moveaxis(array, 1, -1))
            shape = list(array.shape)
        ctx.shapes[param.name], ctx.arrays[param.name] = shape, array
        if param.name in twin_ctx.omitted:
            ctx.omitted.add(param.name)
        if param.name in twin_ctx.empty:
            ctx.empty.add(param.name)
    ctx.attributes.update({k: v for k, v in twin_ctx.attributes.items() if k in ctx.version.attributes})
    ctx.outer.update(twin_ctx.outer)
