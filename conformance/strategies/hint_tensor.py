"""Hints for ai.onnx tensor ops whose attributes or index inputs must agree with the data's shape."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import (
    ArrayHint,
    OpHint,
    ShapeHint,
    axis_in,
    dims,
    distinct_axes,
    int64_array,
    set_first_shape,
)
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _rank(ctx: DrawContext) -> int:
    return len(ctx.first_shape())


def _shape_rank(minimum: int, maximum: int = 4, *, ones: bool = False) -> ShapeHint:
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        rank = draw(integers(minimum, maximum))
        shape = dims(draw, rank, ctx.max_side)
        if ones and shape:
            for axis in distinct_axes(draw, rank):
                shape[axis] = 1
        set_first_shape(ctx, shape)

    return shapes


def _maybe(draw: DrawFn, value: object) -> object:
    return value if draw(BOOLEANS) else OMIT


# ---- Transpose, Squeeze, Concat, Softmax, Flatten, ReduceMean ----------------------------------

def _perm(draw: DrawFn, ctx: DrawContext) -> object:
    return _maybe(draw, [int(a) for a in draw(st.permutations(list(range(_rank(ctx)))))])


TRANSPOSE_HINT = OpHint(attributes={"perm": _perm})


def _unit_axes(draw: DrawFn, ctx: DrawContext) -> list[int]:
    shape = ctx.first_shape()
    ones = [i for i, d in enumerate(shape) if d == 1]
    chosen = sorted(draw(st.lists(st.sampled_from(ones), unique=True, min_size=1))) if ones else []
    negative = ctx.version.since >= 11
    return [a - len(shape) if negative and draw(BOOLEANS) else a for a in chosen]


def _squeeze_attr(draw: DrawFn, ctx: DrawContext) -> object:
    axes = _unit_axes(draw, ctx)
    return _maybe(draw, axes) if axes else OMIT


def _squeeze_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    axes = _unit_axes(draw, ctx)
    return int64_array(axes) if axes and draw(BOOLEANS) else None


SQUEEZE_HINTS = (
    OpHint(shapes=_shape_rank(1, 4, ones=True), attributes={"axes": _squeeze_attr}, until=12),
    OpHint(shapes=_shape_rank(1, 4, ones=True), values={"axes": _squeeze_input}, since=13),
)


def _concat_axis(draw: DrawFn, ctx: DrawContext) -> int:
    return axis_in(draw, _rank(ctx), negative=ctx.version.since >= 11)


CONCAT_HINT = OpHint(shapes=_shape_rank(1), attributes={"axis": _concat_axis})


def _softmax_axis(draw: DrawFn, ctx: DrawContext) -> int:
    return axis_in(draw, _rank(ctx))


SOFTMAX_HINT = OpHint(shapes=_shape_rank(1), attributes={"axis": _softmax_axis})


def _flatten_axis(draw: DrawFn, ctx: DrawContext) -> int:
    return axis_in(draw, _rank(ctx), inclusive_end=True, negative=ctx.version.since >= 11)


FLATTEN_HINT = OpHint(shapes=_shape_rank(1), attributes={"axis": _flatten_axis})


# ---- Reshape, Slice ---------------------------------------------------------------------------------

def _reshape_target(draw: DrawFn, ctx: DrawContext) -> list[int]:
    shape = ctx.first_shape()
    total = int(np.prod(shape)) if shape else 1
    options = [[total], [-1], list(reversed(shape)), [*shape, 1]]
    if shape:
        wildcard = list(shape)
        wildcard[draw(integers(0, len(shape) - 1))] = -1
        options.append(wildcard)
        if not ctx.attributes.get("allowzero"):
            options.append([0, -1] if len(shape) > 1 else [0])
    return list(draw(st.sampled_from(options)))


RESHAPE_HINTS = (
    OpHint(attributes={"shape": lambda draw, ctx: _reshape_target(draw, ctx)}, until=4),
    OpHint(values={"shape": lambda draw, ctx: int64_array(_reshape_target(draw, ctx))},
           attributes={"allowzero": lambda draw, ctx: 0}, since=5),
)


def _slice_spec(draw: DrawFn, ctx: DrawContext, *, steps: bool) -> dict[str, list[int]]:
    shape = ctx.first_shape()
    axes = distinct_axes(draw, len(shape))
    starts = [draw(integers(-shape[a], shape[a])) for a in axes]
    ends = [draw(integers(-shape[a] - 1, shape[a] + 1)) for a in axes]
    spec = {"axes": axes, "starts": starts, "ends": ends}
    if steps:
        spec["steps"] = [draw(st.sampled_from([1, 1, 2, -1, -2])) for _ in axes]
    return spec


def _slice_v1_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _shape_rank(1)(draw, ctx)
    spec = _slice_spec(draw, ctx, steps=False)
    ctx.attributes.update({"starts": spec["starts"], "ends": spec["ends"], "axes": spec["axes"]})


def _slice_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _shape_rank(1)(draw, ctx)
    spec = _slice_spec(draw, ctx, steps=True)
    ctx.scratch["slice"] = spec


def _slice_value(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        spec = ctx.scratch["slice"]
        element = ctx.element_of("Tind")
        if name in ("axes", "steps") and draw(BOOLEANS):
            if name == "axes" and spec["axes"] == list(range(len(spec["axes"]))):
                return None  # omitted axes mean 0..n-1, which these are
            if name == "steps" and all(s == 1 for s in spec["steps"]):
                return None
        return np.asarray(spec[name], dtype=np.int64 if element == "int64" else np.int32)

    return build


SLICE_HINTS = (
    OpHint(shapes=_slice_v1_shapes, generic_attributes=False, until=9),
    OpHint(shapes=_slice_shapes, values={n: _slice_value(n) for n in ("starts", "ends", "axes", "steps")},
           since=10),
)


# ---- SpaceToDepth, Pad, Upsample, Clip, Constant ----------------------------------------------------

def _space_to_depth_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    block = draw(integers(1, 3))
    ctx.attributes["blocksize"] = block
    h, w = draw(integers(1, 2)) * block, draw(integers(1, 2)) * block
    set_first_shape(ctx, [draw(integers(1, 2)), draw(integers(1, 3)), h, w])


SPACE_TO_DEPTH_HINT = OpHint(shapes=_space_to_depth_shapes)


def _pads_for(draw: DrawFn, ctx: DrawContext) -> list[int]:
    shape = ctx.first_shape()
    begin = [draw(integers(0, min(2, d - 1))) for d in shape]
    end = [draw(integers(0, min(2, d - 1))) for d in shape]
    return begin + end


def _pad_mode(draw: DrawFn, ctx: DrawContext) -> object:
    modes = ["constant", "reflect", "edge"] + (["wrap"] if ctx.version.since >= 19 else [])
    return _maybe(draw, draw(st.sampled_from(modes)))


def _pad_constant(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    return fill_array(draw(SEEDS), ctx.dtype, []) if draw(BOOLEANS) else None


PAD_HINTS = (
    OpHint(shapes=_shape_rank(1), attributes={"paddings": _pads_for, "mode": _pad_mode}, until=1),
    OpHint(shapes=_shape_rank(1), attributes={"pads": _pads_for, "mode": _pad_mode}, since=2, until=10),
    OpHint(shapes=_shape_rank(1), attributes={"mode": _pad_mode},
           values={"pads": lambda draw, ctx: int64_array(_pads_for(draw, ctx)), "constant_value": _pad_constant,
                   "axes": lambda draw, ctx: None}, since=11),
)


def _scales(draw: DrawFn, ctx: DrawContext) -> list[float]:
    rank = _rank(ctx)
    return [1.0] * min(2, rank) + [float(draw(integers(1, 3))) for _ in range(max(0, rank - 2))]


UPSAMPLE_HINTS = (
    OpHint(shapes=_shape_rank(3, 4), attributes={"scales": _scales}, until=8),
    OpHint(shapes=_shape_rank(3, 4),
           values={"scales": lambda draw, ctx: np.asarray(_scales(draw, ctx), dtype=np.float32)}, since=9),
)


def _clip_bound(low: float, high: float) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        if draw(BOOLEANS):
            return None
        return fill_array(draw(SEEDS), ctx.dtype, [], min_value=low, max_value=high)

    return build


CLIP_HINT = OpHint(values={"min": _clip_bound(-3, 0), "max": _clip_bound(0, 3)}, since=11)


def _constant_value(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    shape = dims(draw, draw(integers(0, 3)), ctx.max_side)
    return fill_array(draw(SEEDS), ctx.dtype, shape)


CONSTANT_HINT = OpHint(attributes={"value": _constant_value}, generic_attributes=False)


# ---- Gemm, BatchNormalization ----------------------------------------------------------------------

def _gemm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    m, k, n = (draw(integers(1, 6)) for _ in range(3))
    trans_a, trans_b = draw(integers(0, 1)), draw(integers(0, 1))
    ctx.attributes.update({"transA": trans_a, "transB": trans_b})
    ctx.shapes["A"] = [k, m] if trans_a else [m, k]
    ctx.shapes["B"] = [n, k] if trans_b else [k, n]
    legacy = ctx.version.since <= 6
    if "C" in ctx.omitted:
        return
    options = [[m, n]] if legacy else [[m, n], [n], [1], [m, 1], [1, n], []]
    c_shape = draw(st.sampled_from(options))
    if legacy and draw(BOOLEANS):
        ctx.attributes["broadcast"] = 1
        c_shape = draw(st.sampled_from([[m, n], [n], [1]]))
    ctx.shapes["C"] = c_shape


GEMM_HINTS = (OpHint(shapes=_gemm_shapes),)


def _batch_norm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rank = draw(integers(2, 4))
    shape = dims(draw, rank, ctx.max_side)
    names = [p.name for p in ctx.version.inputs]
    ctx.shapes[names[0]] = shape
    for name in names[1:]:
        ctx.shapes[name] = [shape[1]]


def _variance(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    channels = ctx.first_shape()[1]
    param = ctx.version.inputs[4]
    return fill_array(draw(SEEDS), ctx.element_of(param.type), [channels], min_value=0.25, max_value=4.0)


def _only_y(draw: DrawFn, ctx: DrawContext) -> int:
    return 1  # the running statistics and saved means are training outputs; the cases run inference


BATCH_NORM_HINTS = (
    OpHint(shapes=_batch_norm_shapes, outputs=_only_y, values={"var": _variance},
           attributes={"is_test": lambda draw, ctx: 1, "spatial": lambda draw, ctx: 1,
                       "consumed_inputs": lambda draw, ctx: [0, 0, 0, 1, 1] if ctx.version.since == 1 else OMIT},
           until=6),
    OpHint(shapes=_batch_norm_shapes, outputs=_only_y, values={"var": _variance},
           attributes={"spatial": lambda draw, ctx: 1}, since=7, until=13),
    OpHint(shapes=_batch_norm_shapes, outputs=_only_y, values={"input_var": _variance},
           attributes={"training_mode": lambda draw, ctx: 0}, since=14),
)


def _dropout_ratio(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    if draw(BOOLEANS):
        return None
    param = next(p for p in ctx.version.inputs if p.name == "ratio")
    return np.asarray(draw(st.sampled_from([0.0, 0.25, 0.5, 0.75])),
                      dtype=np.dtype(_numpy(ctx.element_of(param.type))))


def _dropout_training(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    """Absent (inference), false or true: training draws a random mask, which conform checks by its law."""
    training: np.ndarray | None = draw(st.sampled_from([None, np.asarray(False), np.asarray(True)]))
    return training


def _numpy(element: str) -> str:
    from opset.dtypes import numpy_name

    return numpy_name(element) or "float32"


# before opset 7 is_test (0 by default: training) and the ratio attribute are drawn generically
DROPOUT_HINTS = (
    OpHint(values={"ratio": _dropout_ratio, "training_mode": _dropout_training}, since=12),
)
