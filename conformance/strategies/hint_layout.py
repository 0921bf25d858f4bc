"""Hints for ai.onnx ops whose index attributes or shape-like inputs must fit the data: Shape, Expand, Tile, Range,
OneHot, Split.

Each draws the data's shape first, then the attributes and input values that fit it, so every case is valid by
construction and the constraints only confirm it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import ArrayHint, OpHint, ShapeHint, axis_in, dims, int64_array, set_first_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _rank_between(minimum: int, maximum: int = 4) -> ShapeHint:
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        set_first_shape(ctx, dims(draw, draw(integers(minimum, maximum)), ctx.max_side))

    return shapes


def _in_type(ctx: DrawContext, name: str, values: list[float]) -> np.ndarray:
    """`values` as a 1-D array of input `name`'s element type."""
    from opset.dtypes import numpy_name

    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
    return np.asarray(values, dtype=np.dtype(numpy_name(element) or element))


# ---- Shape --------------------------------------------------------------------------------------------------

def _shape_bound(draw: DrawFn, ctx: DrawContext) -> object:
    rank = len(ctx.first_shape())
    return draw(integers(-rank - 2, rank + 2)) if draw(integers(0, 3)) else OMIT  # clamping shows past +/-r


SHAPE_HINT = OpHint(attributes={"start": _shape_bound, "end": _shape_bound}, since=15)


# ---- Expand -------------------------------------------------------------------------------------------------

def _expand_target(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """A shape that broadcasts with the data's: per aligned dim the same, 1, or (over a 1) a new size; maybe extra
    leading dims, maybe fewer dims than the data."""
    data = ctx.first_shape()
    kept = draw(integers(0, len(data)))
    target = []
    for size in data[len(data) - kept:]:
        options = [size, 1] + ([0, draw(integers(2, 3))] if size == 1 else [])
        target.append(int(draw(st.sampled_from(options))))
    if kept == len(data):
        target = [int(d) for d in dims(draw, draw(integers(0, 2)), 3)] + target
    return int64_array(target)


BROADCAST_TARGET_HINT = OpHint(shapes=_rank_between(0, 3), values={"shape": _expand_target})


# ---- Tile ---------------------------------------------------------------------------------------------------

def _tile_count(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return _in_type(ctx, "tiles", [draw(integers(0, 3))])


def _tile_axis(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return _in_type(ctx, "axis", [axis_in(draw, len(ctx.first_shape()))])


def _repeats(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return int64_array([int(draw(integers(0, 3))) for _ in ctx.first_shape()])


TILE_HINTS = (
    OpHint(shapes=_rank_between(1, 3), values={"tiles": _tile_count, "axis": _tile_axis}, until=5),
    OpHint(shapes=_rank_between(0, 3), values={"repeats": _repeats}, since=6),
)


# ---- Range --------------------------------------------------------------------------------------------------

def _range_value(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        element = ctx.dtype
        if name != "delta":
            if "range_offset" not in ctx.scratch:
                # float16 near 1024 has a spacing of 1 (2 past 2048): summing quarter steps in float16 stalls
                # there, which is what opset 27's stash_type avoids; elsewhere values stay small and exact
                offset = draw(st.sampled_from([0.0, 1024.0, -2048.0])) if element == "float16" else 0.0
                ctx.scratch["range_offset"] = offset
            offset = ctx.scratch["range_offset"]
            return fill_array(draw(SEEDS), element, [], min_value=offset - 4, max_value=offset + 4)
        step = draw(st.sampled_from([-2.0, -1.0, -0.5, -0.25, 0.25, 0.5, 1.0, 2.0, 3.0]))
        if element not in ("float16", "float", "double"):
            step = float(np.sign(step)) * max(1.0, abs(step))
        return fill_array(draw(SEEDS), element, [], min_value=step, max_value=step)

    return build


RANGE_HINT = OpHint(values={n: _range_value(n) for n in ("start", "limit", "delta")})


# ---- OneHot -------------------------------------------------------------------------------------------------

def _one_hot_axis(draw: DrawFn, ctx: DrawContext) -> object:
    rank = len(ctx.first_shape())
    return draw(integers(-rank - 1, rank)) if draw(integers(0, 3)) else OMIT


def _depth(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    classes = float(draw(integers(1, 5)))
    element = ctx.element_of("T2")
    if element in ("float16", "float", "double") and draw(BOOLEANS):
        classes += 0.5  # a fractional depth is cast to int64 (toward zero)
    shape = draw(st.sampled_from([[], [1]]))
    return fill_array(draw(SEEDS), element, shape, min_value=classes, max_value=classes)


def _indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Indices around [-depth, depth]; at opset 9 half the time none negative, since opset 9's negative indices
    are a reading of their own (onehot_r1), where a failing case only counts as ambiguous."""
    low = 0.0 if ctx.version.since < 11 and draw(BOOLEANS) else -4.0
    return fill_array(draw(SEEDS), ctx.element_of("T1"), list(ctx.shapes["indices"]), min_value=low)


ONE_HOT_HINT = OpHint(shapes=_rank_between(1, 3), attributes={"axis": _one_hot_axis},
                      values={"indices": _indices, "depth": _depth})


# ---- Split --------------------------------------------------------------------------------------------------

def _parts(draw: DrawFn, total: int, count: int) -> list[int]:
    """`count` lengths >= 0 that add up to `total`."""
    cuts = sorted(int(draw(integers(0, total))) for _ in range(count - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def _split_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """The data, the axis and how the lengths are given; an equal split gets an axis the output count divides."""
    count = int(ctx.scratch["arity"]["outputs"])
    since = ctx.version.since
    ways = ["equal", "lengths"] if since < 18 else ["num_outputs", "lengths"]
    if since == 1:
        ways.append("input")
    way = draw(st.sampled_from(ways))
    shape = dims(draw, draw(integers(1, 3)), ctx.max_side)
    axis = axis_in(draw, len(shape))
    if way == "equal":
        shape[axis] = count * draw(integers(1, 2))
    elif way == "num_outputs":
        # ceil-sized parts must leave the last one >= 0: at most count - 1 short of a multiple
        chunk = draw(integers(1, 2))
        shape[axis] = chunk * count - draw(integers(0, chunk - 1 if count > 1 else 0))
    set_first_shape(ctx, shape)
    if axis != 0 or draw(BOOLEANS):  # 0 is the default: a node may leave it off
        ctx.attributes["axis"] = axis
    lengths = _parts(draw, shape[axis], count)
    if way == "num_outputs":
        ctx.attributes["num_outputs"] = count
    elif way == "lengths" and since < 13:
        ctx.attributes["split"] = lengths
    ctx.scratch["split"] = lengths if way in ("lengths", "input") and (since >= 13 or way == "input") else None


def _split_lengths(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    lengths = ctx.scratch["split"]
    if lengths is None:
        return None
    return int64_array(lengths) if ctx.version.since >= 13 else _in_type(ctx, "split_input", lengths)


SPLIT_HINTS = (
    OpHint(shapes=_split_shapes, values={"split_input": _split_lengths}, generic_attributes=False, until=1),
    OpHint(shapes=_split_shapes, generic_attributes=False, since=2, until=12),
    OpHint(shapes=_split_shapes, values={"split": _split_lengths}, generic_attributes=False, since=13),
)
