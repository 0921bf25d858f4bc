"""Hints for the ai.onnx indexing ops, whose index inputs the schemas' `value(...)` constraints only check.

Each builder draws the shapes first, then the attributes that depend on them (set during the shape step,
so the generic attribute draw leaves them alone), then index values inside their bounds, negative ones
included where the version allows them. Scatter cases without a reduction mostly get distinct targets:
repeated targets hit the registry's duplicate-write reading, where a differing backend is only ambiguous.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, axis_in, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS

MAX_INDICES = 64  # index inputs stay small enough that the value constraints (and readings) can be decided


def _rng(draw: DrawFn) -> np.random.Generator:
    return np.random.default_rng(draw(SEEDS))


def _index_dtype(ctx: DrawContext, name: str) -> type[np.signedinteger]:
    param = next(p for p in ctx.version.inputs if p.name == name)
    return np.int32 if ctx.element_of(param.type) == "int32" else np.int64


def _in_bounds(rng: np.random.Generator, shape: list[int], size: np.ndarray | int, *, negative: bool) -> np.ndarray:
    """Indices in [-size, size-1] (or [0, size-1]) of `shape`; `size` broadcasts against it."""
    bound = np.broadcast_to(np.asarray(size, dtype=np.int64), shape)
    idx = np.floor(rng.random(shape) * bound).astype(np.int64)
    if negative:
        flip = rng.random(shape) < 0.5
        idx = np.where(flip, idx - bound, idx)
    return idx


def _negative_ok(ctx: DrawContext, since: int) -> bool:
    return ctx.version.since >= since


def _rank(draw: DrawFn, low: int, high: int) -> int:
    return int(draw(integers(low, high)))


def _axis(draw: DrawFn, rank: int) -> int:
    return axis_in(draw, rank)


def _maybe_attr(draw: DrawFn, ctx: DrawContext, name: str, value: object, default: object) -> None:
    """Set attribute `name` on the node; a default value is sometimes left off instead (the hints own their
    attributes: those they leave unset stay off the node)."""
    if value != default or draw(BOOLEANS):
        ctx.attributes[name] = value


def _omitted(draw: DrawFn, ctx: DrawContext) -> object:
    return OMIT  # set by the shape step when wanted, never drawn generically


# ---- Gather, GatherElements, GatherND -----------------------------------------------------------------

def _gather_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    data = dims(draw, _rank(draw, 1, 3), ctx.max_side)
    set_input_shape(ctx, "data", data)
    set_input_shape(ctx, "indices", dims(draw, _rank(draw, 0, 2), 3))
    _maybe_attr(draw, ctx, "axis", _axis(draw, len(data)), 0)


def _gather_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    data = ctx.shapes["data"]
    axis = int(ctx.attributes.get("axis", 0)) % len(data)
    idx = _in_bounds(_rng(draw), ctx.shapes["indices"], data[axis], negative=_negative_ok(ctx, 11))
    return idx.astype(_index_dtype(ctx, "indices"))


GATHER_HINT = OpHint(shapes=_gather_shapes, values={"indices": _gather_indices}, generic_attributes=False)


def _gather_elements_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """indices: data's rank, no larger than data on the other axes, any length along the axis."""
    data = dims(draw, _rank(draw, 1, 3), ctx.max_side)
    axis = _axis(draw, len(data))
    ax = axis % len(data)
    indices = [int(draw(integers(1, ctx.max_side))) if d == ax else int(draw(integers(1, size)))
               for d, size in enumerate(data)]
    set_input_shape(ctx, "data", data)
    set_input_shape(ctx, "indices", indices)
    if ctx.version.name != "GatherElements":
        set_input_shape(ctx, "updates", list(indices))
    _maybe_attr(draw, ctx, "axis", axis, 0)


def _gather_elements_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    data = ctx.shapes["data"]
    axis = int(ctx.attributes.get("axis", 0)) % len(data)
    idx = _in_bounds(_rng(draw), ctx.shapes["indices"], data[axis], negative=True)
    return idx.astype(_index_dtype(ctx, "indices"))


GATHER_ELEMENTS_HINT = OpHint(shapes=_gather_elements_shapes, values={"indices": _gather_elements_indices},
                              generic_attributes=False)


def _gather_nd_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """b batch axes shared by data and indices, k in [1, r - b] index columns, 0 to 2 other index axes."""
    data = dims(draw, _rank(draw, 1, 4), ctx.max_side)
    batch = int(draw(integers(0, len(data) - 1))) if "batch_dims" in ctx.version.attributes else 0
    k = int(draw(integers(1, len(data) - batch)))
    indices = data[:batch] + dims(draw, _rank(draw, 0, 2), 3) + [k]
    set_input_shape(ctx, "data", data)
    set_input_shape(ctx, "indices", indices)
    if "batch_dims" in ctx.version.attributes:
        _maybe_attr(draw, ctx, "batch_dims", batch, 0)


def _gather_nd_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    data, indices = ctx.shapes["data"], ctx.shapes["indices"]
    batch = int(ctx.attributes.get("batch_dims", 0))
    sizes = np.asarray(data[batch:batch + indices[-1]], dtype=np.int64)
    return _in_bounds(_rng(draw), indices, sizes, negative=True)


GATHER_ND_HINT = OpHint(shapes=_gather_nd_shapes, values={"indices": _gather_nd_indices}, generic_attributes=False)


# ---- Scatter, ScatterElements, ScatterND --------------------------------------------------------------

def _reduction(ctx: DrawContext) -> str:
    return str(ctx.attributes.get("reduction", "none"))


def _distinct(draw: DrawFn, ctx: DrawContext) -> bool:
    """Whether targets must be distinct: always with a reduction they need not be; without, mostly."""
    return _reduction(ctx) == "none" and draw(integers(0, 3)) > 0


def _scatter_elements_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    data, shape = ctx.shapes["data"], ctx.shapes["indices"]
    axis = int(ctx.attributes.get("axis", 0)) % len(data)
    size = data[axis]
    rng = _rng(draw)
    negative = ctx.version.name != "Scatter" or ctx.version.since >= 11
    if _distinct(draw, ctx) and shape[axis] <= size:
        # along the axis, every line takes the first entries of its own permutation of [0, size)
        full = list(shape)
        full[axis] = size
        perms = np.argsort(rng.random(full), axis=axis, kind="stable")
        idx = np.take(perms, np.arange(shape[axis]), axis=axis).astype(np.int64)
        if negative:
            idx = np.where(rng.random(shape) < 0.5, idx - size, idx)
    else:
        idx = _in_bounds(rng, shape, size, negative=negative)
    return idx.astype(_index_dtype(ctx, "indices"))


def _scatter_elements_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _gather_elements_shapes(draw, ctx)
    total = int(np.prod(ctx.shapes["indices"]))
    if total > MAX_INDICES:  # keep the duplicate check decidable: shrink the index tensor to one line
        small = [1] * len(ctx.shapes["indices"])
        set_input_shape(ctx, "indices", small)
        set_input_shape(ctx, "updates", list(small))


# the reduction is drawn from its allowed values before the indices, which depend on it
SCATTER_ELEMENTS_HINT = OpHint(shapes=_scatter_elements_shapes, values={"indices": _scatter_elements_indices},
                               attributes={"axis": _omitted})


def _scatter_nd_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """k in [0, r] columns (0 rarely), 0 to 2 leading index axes; updates = indices[:-1] + data[k:]."""
    data = dims(draw, _rank(draw, 1, 3), ctx.max_side)
    k = int(draw(integers(0, len(data)))) if draw(integers(0, 7)) == 0 else int(draw(integers(1, len(data))))
    lead = dims(draw, _rank(draw, 0, 2), 3)
    set_input_shape(ctx, "data", data)
    set_input_shape(ctx, "indices", [*lead, k])
    set_input_shape(ctx, "updates", lead + data[k:])


def _scatter_nd_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    data, shape = ctx.shapes["data"], ctx.shapes["indices"]
    k = shape[-1]
    rng = _rng(draw)
    count = int(np.prod(shape[:-1]))
    slots = int(np.prod(data[:k]))
    if k and _distinct(draw, ctx) and count <= slots:
        flat = rng.permutation(slots)[:count]
        idx = np.stack(np.unravel_index(flat, data[:k]), axis=-1).reshape(shape).astype(np.int64)
        sizes = np.asarray(data[:k], dtype=np.int64)
        idx = np.where(rng.random(shape) < 0.5, idx - sizes, idx)
    else:
        idx = _in_bounds(rng, shape, np.asarray(data[:k], dtype=np.int64), negative=True)
    return idx.astype(np.int64)


SCATTER_ND_HINT = OpHint(shapes=_scatter_nd_shapes, values={"indices": _scatter_nd_indices})  # reduction: generic


# ---- TensorScatter ------------------------------------------------------------------------------------

def _tensor_scatter_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    past = dims(draw, _rank(draw, 2, 4), ctx.max_side)
    rank = len(past)
    ax = int(draw(integers(1, rank - 1)))
    axis = ax - rank if draw(BOOLEANS) else ax
    update = list(past)
    update[ax] = int(draw(integers(0, past[ax]))) if draw(integers(0, 7)) == 0 else \
        int(draw(integers(1, past[ax])))
    set_input_shape(ctx, "past_cache", past)
    set_input_shape(ctx, "update", update)
    _maybe_attr(draw, ctx, "axis", axis, -2)
    mode = str(draw(st.sampled_from(["linear", "circular"])))
    _maybe_attr(draw, ctx, "mode", mode, "linear")
    if "write_indices" not in ctx.omitted:
        set_input_shape(ctx, "write_indices", [past[0]])
    ctx.scratch["tensor_scatter"] = (ax, mode)


def _write_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    if "write_indices" in ctx.omitted:
        return None
    ax, mode = ctx.scratch["tensor_scatter"]
    length, steps = ctx.shapes["past_cache"][ax], ctx.shapes["update"][ax]
    top = 2 * length if mode == "circular" else length - steps  # circular positions wrap modulo length
    rng = _rng(draw)
    return np.asarray(rng.integers(0, top + 1, size=int(ctx.shapes["past_cache"][0])), dtype=np.int64)


TENSOR_SCATTER_HINT = OpHint(shapes=_tensor_scatter_shapes, values={"write_indices": _write_indices},
                             generic_attributes=False)


# ---- Compress, ReverseSequence, CenterCropPad ---------------------------------------------------------

def _compress_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """The axis (or none: flatten) first, then a condition up to two entries longer than the axis."""
    data = dims(draw, _rank(draw, 1, 3), ctx.max_side)
    set_input_shape(ctx, "input", data)
    if draw(integers(0, 2)) == 0:
        size = int(np.prod(data))
    else:
        axis = axis_in(draw, len(data), negative=ctx.version.since >= 11)
        ctx.attributes["axis"] = axis
        size = data[axis % len(data)]
    set_input_shape(ctx, "condition", [int(draw(integers(0, size + 2)))])
    ctx.scratch["compress"] = size


def _condition(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Random entries up to the axis's size, false past it (a true one there is invalid)."""
    length, size = ctx.shapes["condition"][0], ctx.scratch["compress"]
    keep = np.asarray(_rng(draw).random(length) < 0.6)
    keep[size:] = False
    return keep


COMPRESS_HINT = OpHint(shapes=_compress_shapes, values={"condition": _condition}, generic_attributes=False)


def _reverse_sequence_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    data = dims(draw, _rank(draw, 2, 4), ctx.max_side)
    batch_axis = int(draw(integers(0, 1)))
    set_input_shape(ctx, "input", data)
    set_input_shape(ctx, "sequence_lens", [data[batch_axis]])
    _maybe_attr(draw, ctx, "batch_axis", batch_axis, 1)
    _maybe_attr(draw, ctx, "time_axis", 1 - batch_axis, 0)


def _sequence_lens(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    time_axis = int(ctx.attributes.get("time_axis", 0))
    steps = ctx.shapes["input"][time_axis]
    return np.asarray(_rng(draw).integers(0, steps + 1, size=ctx.shapes["sequence_lens"]), dtype=np.int64)


REVERSE_SEQUENCE_HINT = OpHint(shapes=_reverse_sequence_shapes, values={"sequence_lens": _sequence_lens},
                               generic_attributes=False)


def _center_crop_pad_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    data = dims(draw, _rank(draw, 1, 3), ctx.max_side)
    set_input_shape(ctx, "input_data", data)
    rank = len(data)
    if draw(BOOLEANS):
        chosen = draw(st.lists(integers(0, rank - 1), min_size=1, max_size=rank, unique=True))
        axes = [a - rank if draw(BOOLEANS) else a for a in chosen]
        ctx.attributes["axes"] = axes
        count = len(axes)
    else:
        count = rank
    set_input_shape(ctx, "shape", [count])


def _crop_sizes(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Per axis a size from 0 to twice the input's (crops, pads and equal sizes alike)."""
    data = ctx.shapes["input_data"]
    axes = ctx.attributes.get("axes")
    listed = range(len(data)) if axes is None else [a % len(data) for a in axes]
    rng = _rng(draw)
    sizes = [int(rng.integers(0, 2 * data[a] + 2)) for a in listed]
    return np.asarray(sizes, dtype=_index_dtype(ctx, "shape"))


CENTER_CROP_PAD_HINT = OpHint(shapes=_center_crop_pad_shapes, values={"shape": _crop_sizes}, generic_attributes=False)


# ---- DepthToSpace, Col2Im -----------------------------------------------------------------------------

def _depth_to_space_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    block = int(draw(integers(1, 3)))
    ctx.attributes["blocksize"] = block
    if "mode" in ctx.version.attributes:
        _maybe_attr(draw, ctx, "mode", str(draw(st.sampled_from(["DCR", "CRD"]))), "DCR")
    depth = int(draw(integers(1, 3)))
    set_input_shape(ctx, "input", [int(draw(integers(1, 2))), depth * block * block,
                                   int(draw(integers(1, 3))), int(draw(integers(1, 3)))])


DEPTH_TO_SPACE_HINT = OpHint(shapes=_depth_to_space_shapes, generic_attributes=False)


def _col2im_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """Block, dilations, strides and pads first; then an image the dilated block fits into; then the
    input of [N, C * prod(block), number of blocks]."""
    n = int(draw(integers(2, 3)))
    block = [int(draw(integers(1, 3))) for _ in range(n)]
    dilations = [int(draw(integers(1, 2))) for _ in range(n)]
    strides = [int(draw(integers(1, 2))) for _ in range(n)]
    pads = [int(draw(integers(0, 1))) for _ in range(2 * n)]
    image = []
    for i in range(n):
        span = dilations[i] * (block[i] - 1) + 1
        image.append(int(draw(integers(max(1, span - pads[i] - pads[i + n]), span + 2))))
    counts = [(image[i] + pads[i] + pads[i + n] - dilations[i] * (block[i] - 1) - 1) // strides[i] + 1
              for i in range(n)]
    for name, value, default in (("dilations", dilations, [1] * n), ("strides", strides, [1] * n),
                                 ("pads", pads, [0] * (2 * n))):
        _maybe_attr(draw, ctx, name, value, default)
    set_input_shape(ctx, "input", [int(draw(integers(1, 2))), int(draw(integers(1, 2))) * int(np.prod(block)),
                                   int(np.prod(counts))])
    set_input_shape(ctx, "image_shape", [n])
    set_input_shape(ctx, "block_shape", [n])
    ctx.scratch["col2im"] = (image, block)


COL2IM_HINT = OpHint(shapes=_col2im_shapes,
                     values={"image_shape": lambda draw, ctx: np.asarray(ctx.scratch["col2im"][0], np.int64),
                             "block_shape": lambda draw, ctx: np.asarray(ctx.scratch["col2im"][1], np.int64)},
                     generic_attributes=False)
