"""Hints for sliding-window ops (pooling, Conv, ConvTranspose): windows that fit the drawn spatial dims.

One draw fixes the spatial dims, then kernel, dilations, strides and pads with pad < kernel and the
dilated kernel inside the padded input, so every case is valid by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, dims, set_first_shape
from conformance.strategies.memo import BOOLEANS, integers

AUTO_PADS = ("NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER")


@dataclass
class Window:
    spatial: list[int]
    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads: list[int]
    auto_pad: str


def draw_window(draw: DrawFn, ctx: DrawContext, *, allow_dilations: bool, allow_auto_pad: bool) -> Window:
    rank = draw(integers(1, 3))
    spatial = dims(draw, rank, ctx.max_side + 1, low=2 if rank < 3 else 1)
    dilations = [draw(integers(1, 2)) if allow_dilations else 1 for _ in spatial]
    kernel = [draw(integers(1, max(1, (s - 1) // d + 1))) for s, d in zip(spatial, dilations, strict=True)]
    strides = [draw(integers(1, 2)) for _ in spatial]
    begin = [draw(integers(0, k - 1)) for k in kernel]
    end = [draw(integers(0, k - 1)) for k in kernel]
    auto_pad = draw(st.sampled_from(AUTO_PADS)) if allow_auto_pad else "NOTSET"
    return Window(spatial, kernel, strides, dilations, begin + end, auto_pad)


def _set_window_attributes(draw: DrawFn, ctx: DrawContext, w: Window, *, kernel_required: bool) -> None:
    attrs = ctx.version.attributes
    if kernel_required or draw(BOOLEANS):
        ctx.attributes["kernel_shape"] = w.kernel
    if "strides" in attrs and draw(BOOLEANS):
        ctx.attributes["strides"] = w.strides
    if "dilations" in attrs and draw(BOOLEANS):
        ctx.attributes["dilations"] = w.dilations
    if w.auto_pad != "NOTSET":
        ctx.attributes["auto_pad"] = w.auto_pad
    elif draw(BOOLEANS):
        ctx.attributes["pads"] = w.pads
    if "ceil_mode" in attrs:
        ctx.attributes["ceil_mode"] = draw(integers(0, 1))
    if "count_include_pad" in attrs:
        ctx.attributes["count_include_pad"] = draw(integers(0, 1))
    if "storage_order" in attrs:
        ctx.attributes["storage_order"] = 0


def _pool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    w = draw_window(draw, ctx, allow_dilations="dilations" in ctx.version.attributes, allow_auto_pad=True)
    if "dilations" not in ctx.version.attributes:
        w.dilations = [1] * len(w.spatial)
    _set_window_attributes(draw, ctx, w, kernel_required=True)
    if ctx.attributes.get("ceil_mode") and w.auto_pad != "NOTSET":
        ctx.attributes["ceil_mode"] = 0  # ceil_mode with auto_pad is left undefined by the spec
    set_first_shape(ctx, dims(draw, 2, 2) + w.spatial)


POOL_HINT = OpHint(shapes=_pool_shapes, generic_attributes=False)


def _conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    w = draw_window(draw, ctx, allow_dilations=True, allow_auto_pad=True)
    group = draw(integers(1, 2))
    channels, maps = group * draw(integers(1, 2)), group * draw(integers(1, 2))
    _set_window_attributes(draw, ctx, w, kernel_required=False)
    ctx.attributes["dilations"] = w.dilations  # the weight's spatial size is the undilated kernel
    if group > 1 or draw(BOOLEANS):
        ctx.attributes["group"] = group
    names = [p.name for p in ctx.version.inputs]
    ctx.shapes[names[0]] = [draw(integers(1, 2)), channels, *w.spatial]
    ctx.shapes[names[1]] = [maps, channels // group, *w.kernel]
    if len(names) > 2 and names[2] not in ctx.omitted:
        ctx.shapes[names[2]] = [maps]
