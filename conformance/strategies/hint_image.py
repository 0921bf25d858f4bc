"""Hints for the image ops (pooling variants, resampling, RoI and box ops): inputs whose values or shapes must
agree with each other in ways the schemas check but cannot construct.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import numpy_dtype
from conformance.strategies.hint_spatial import POOL_HINT
from conformance.strategies.hints import ArrayHint, OpHint, dims, int64_array, set_first_shape, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS


def _lp_order(draw: DrawFn, ctx: DrawContext) -> float | int:
    """p of the Lp norm: small orders, 1 and 2 most used; a float at version 1 (also a fractional one)."""
    if ctx.version.attributes["p"].type == "float":
        return float(draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])))
    return int(draw(st.sampled_from([1, 2, 3])))


# the window fits the drawn spatial dims (the pooling hint), and p is drawn too
LP_POOL_HINT = OpHint(shapes=POOL_HINT.shapes, attributes={"p": _lp_order}, generic_attributes=False)


def _global_pool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    set_first_shape(ctx, dims(draw, draw(integers(3, 5)), ctx.max_side))


# one to three spatial axes, as the pooling hints draw (onnxruntime's pooling kernels stop at three)
GLOBAL_LP_POOL_HINT = OpHint(shapes=_global_pool_shapes, attributes={"p": _lp_order})


# ---- MaxUnpool --------------------------------------------------------------------------------------

def _unpool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """A pooled X (1 to 3 spatial axes), the window that pooled it, and the unpooled output shape.

    The total padding stays small enough that every output axis is at least as long as X's, so each (n, c)
    plane has room for distinct indices; output_shape, when given, adds up to stride - 1 per axis (the sizes
    a MaxPool input of that window could have had).
    """
    rank = draw(integers(1, 3))
    n, c = draw(integers(1, 2)), draw(integers(1, 2))
    spatial = dims(draw, rank, 3)
    kernel = [draw(integers(1, 3)) for _ in spatial]
    strides = [draw(integers(1, 3)) for _ in spatial]
    begin, end = [], []
    for s, k, st_ in zip(spatial, kernel, strides, strict=True):
        total = draw(integers(0, min(2 * (k - 1), (s - 1) * (st_ - 1) + k - 1)))
        first = draw(integers(max(0, total - (k - 1)), min(total, k - 1)))
        begin.append(first)
        end.append(total - first)
    inferred = [(s - 1) * st_ - b - e + k for s, st_, b, e, k in zip(spatial, strides, begin, end, kernel, strict=True)]
    ctx.attributes["kernel_shape"] = kernel
    if any(st_ > 1 for st_ in strides) or draw(BOOLEANS):
        ctx.attributes["strides"] = strides
    if any(begin + end) or draw(BOOLEANS):
        ctx.attributes["pads"] = begin + end
    out = [n, c, *inferred]
    if "output_shape" not in ctx.omitted:
        out = [n, c, *(d + draw(integers(0, st_ - 1)) for d, st_ in zip(inferred, strides, strict=True))]
        set_input_shape(ctx, "output_shape", [len(out)])
    ctx.scratch["unpool_out"] = out
    set_input_shape(ctx, "X", [n, c, *spatial])
    set_input_shape(ctx, "I", [n, c, *spatial])


def _unpool_indices(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Distinct positions per (n, c) plane, offset to that plane, as MaxPool's Indices count them; or, now and
    then, distinct positions anywhere in the output (the indices are flat over the whole tensor)."""
    out = ctx.scratch["unpool_out"]
    shape = ctx.shapes["X"]
    rng = np.random.default_rng(draw(SEEDS))
    plane, count = math.prod(out[2:]), math.prod(shape[2:])
    if draw(integers(0, 3)) == 0:
        anywhere = rng.choice(math.prod(out), size=math.prod(shape), replace=False)
        return np.asarray(anywhere, dtype=np.int64).reshape(shape)
    planes = [rng.choice(plane, size=count, replace=False) + k * plane for k in range(shape[0] * shape[1])]
    return np.concatenate(planes).astype(np.int64).reshape(shape)


def _unpool_output_shape(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    return None if "output_shape" in ctx.omitted else int64_array(ctx.scratch["unpool_out"])


MAX_UNPOOL_HINT = OpHint(shapes=_unpool_shapes, values={"I": _unpool_indices, "output_shape": _unpool_output_shape},
                         generic_attributes=False)


# ---- MaxRoiPool, RoiAlign -------------------------------------------------------------------------

def _boxes(draw: DrawFn, ctx: DrawContext, count: int) -> np.ndarray:
    """count x 4 boxes [x1, y1, x2, y2] on a quarter-pixel grid, from just outside the image to just past it,
    corners ordered (x1 <= x2, y1 <= y2)."""
    height, width = ctx.shapes["X"][2:4]
    rng = np.random.default_rng(draw(SEEDS))
    xs = rng.integers(-4, 4 * width + 5, size=(count, 2)) / 4
    ys = rng.integers(-4, 4 * height + 5, size=(count, 2)) / 4
    return np.stack([xs.min(axis=1), ys.min(axis=1), xs.max(axis=1), ys.max(axis=1)], axis=1)


def _max_roi_pool_rois(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """[batch, x1, y1, x2, y2] rows: an image of the batch and a box."""
    count = ctx.shapes["rois"][0]
    batch = np.asarray(draw(st.lists(integers(0, ctx.shapes["X"][0] - 1), min_size=count, max_size=count)))
    rows = np.concatenate([batch[:, None], _boxes(draw, ctx, count)], axis=1)
    return rows.astype(numpy_dtype(ctx.element_of("T")))


def _roi_align_rois(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return _boxes(draw, ctx, ctx.shapes["rois"][0]).astype(numpy_dtype(ctx.element_of("T1")))


def _roi_align_batch(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    count = ctx.shapes["batch_indices"][0]
    return int64_array(draw(st.lists(integers(0, ctx.shapes["X"][0] - 1), min_size=count, max_size=count)))


def _pooled_shape(draw: DrawFn, ctx: DrawContext) -> list[int]:
    return [draw(integers(1, 3)), draw(integers(1, 3))]


# the pooled shape (required) is drawn here, the RoIs' batch index names an image and the boxes lie about the image
MAX_ROI_POOL_HINT = OpHint(attributes={"pooled_shape": _pooled_shape}, values={"rois": _max_roi_pool_rois})
def _roi_align_mode(draw: DrawFn, ctx: DrawContext) -> object:
    """max as often as avg (the generic draw leaves the attribute off, i.e. avg, half the time)."""
    return draw(st.sampled_from(["max", "avg", OMIT]))


ROI_ALIGN_HINT = OpHint(attributes={"mode": _roi_align_mode},
                        values={"rois": _roi_align_rois, "batch_indices": _roi_align_batch})


# ---- NonMaxSuppression ---------------------------------------------------------------------------

def _scalar_input(values: st.SearchStrategy[float], dtype: type[np.generic]) -> ArrayHint:
    """A one-value input, left off now and then; shaped [1] mostly (onnx.reference indexes it), else a scalar."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        if draw(integers(0, 4)) == 0:
            return None
        shape: tuple[int, ...] = (1,) if draw(integers(0, 3)) else ()
        return np.full(shape, draw(values), dtype=dtype)

    return build


def _nms_boxes(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Coordinates on a coarse grid (whole units, now and then halves) in a small square: boxes overlap often and
    their IoUs are simple fractions (1/2, 1/3, 2/3 ...) that the thresholds below can hit exactly."""
    rng = np.random.default_rng(draw(SEEDS))
    step = draw(st.sampled_from([1.0, 0.5]))
    return np.asarray(rng.integers(-1, 5, size=ctx.shapes["boxes"]) * step, dtype=np.float32)


def _nms_scores(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Scores on the score thresholds' grid, so ties and scores equal to the threshold occur."""
    rng = np.random.default_rng(draw(SEEDS))
    return np.asarray(rng.integers(-2, 5, size=ctx.shapes["scores"]) / 4, dtype=np.float32)


IOU_THRESHOLDS = [0.0, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1.0]
NMS_HINT = OpHint(values={
    "boxes": _nms_boxes,
    "scores": _nms_scores,
    "max_output_boxes_per_class": _scalar_input(integers(-1, 5), np.int64),
    "iou_threshold": _scalar_input(st.sampled_from(IOU_THRESHOLDS), np.float32),
    "score_threshold": _scalar_input(integers(-2, 4).map(lambda k: k / 4), np.float32),
})


# ---- AffineGrid, GridSample -----------------------------------------------------------------------

def _affine_grid_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """A 2-D or 3-D theta and the size it needs: [N, C, (D,) H, W] with small sides (1 included)."""
    r = draw(integers(2, 3))
    n = draw(integers(1, 2))
    ctx.scratch["affine_size"] = [n, draw(integers(1, 3)), *dims(draw, r, 4)]
    set_input_shape(ctx, "theta", [n, r, r + 1])
    set_input_shape(ctx, "size", [r + 2])


AFFINE_GRID_HINT = OpHint(shapes=_affine_grid_shapes,
                          values={"size": lambda draw, ctx: int64_array(ctx.scratch["affine_size"])})


def _grid_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """X with 1 to 3 spatial axes (exactly 2 at version 16) and a grid with as many output axes."""
    r = 2 if ctx.version.since < 20 else draw(integers(1, 3))
    n, c = draw(integers(1, 2)), draw(integers(1, 3))
    set_input_shape(ctx, "X", [n, c, *dims(draw, r, 4)])
    set_input_shape(ctx, "grid", [n, *dims(draw, r, 3), r])


def _grid_values(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Coordinates in [-1.25, 1.25] on an eighth grid: mostly inside the image, some just outside (padding)."""
    rng = np.random.default_rng(draw(SEEDS))
    steps = rng.integers(-10, 11, size=ctx.shapes["grid"])
    return np.asarray(steps / 8, dtype=numpy_dtype(ctx.element_of("T2")))


GRID_SAMPLE_HINT = OpHint(shapes=_grid_shapes, values={"grid": _grid_values})


# ---- DeformConv ------------------------------------------------------------------------------------

def _deform_conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """1 to 3 spatial axes; a window that fits; groups and offset groups that divide the channels; offset (and
    mask) shaped for the output."""
    r = draw(integers(1, 3))
    spatial = dims(draw, r, 4, low=2)
    kernel = [draw(integers(1, min(3, s))) for s in spatial]
    dilations = [draw(integers(1, 2)) if (k - 1) * 2 < s else 1 for k, s in zip(kernel, spatial, strict=True)]
    strides = [draw(integers(1, 2)) for _ in spatial]
    pads = [draw(integers(0, 1)) for _ in range(2 * r)]
    out = [(s + pads[i] + pads[i + r] - (k - 1) * d - 1) // st_ + 1
           for i, (s, k, d, st_) in enumerate(zip(spatial, kernel, dilations, strides, strict=True))]
    group, offset_group = draw(integers(1, 2)), draw(integers(1, 2))
    channels = group * offset_group * draw(integers(1, 2))
    maps = group * draw(integers(1, 2))
    n = draw(integers(1, 2))
    taps = math.prod(kernel)
    for name, value, default in (("kernel_shape", kernel, None), ("dilations", dilations, [1] * r),
                                 ("strides", strides, [1] * r), ("pads", pads, [0] * 2 * r),
                                 ("group", group, 1), ("offset_group", offset_group, 1)):
        if value != default or draw(BOOLEANS):
            ctx.attributes[name] = value
    set_input_shape(ctx, "X", [n, channels, *spatial])
    set_input_shape(ctx, "W", [maps, channels // group, *kernel])
    set_input_shape(ctx, "offset", [n, offset_group * taps * r, *out])
    if "B" not in ctx.omitted:
        set_input_shape(ctx, "B", [maps])
    if "mask" not in ctx.omitted:
        set_input_shape(ctx, "mask", [n, offset_group * taps, *out])


def _offsets(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Offsets in [-1.5, 1.5] on an eighth grid: fractional moves, some past the image's edge."""
    rng = np.random.default_rng(draw(SEEDS))
    return np.asarray(rng.integers(-12, 13, size=ctx.shapes["offset"]) / 8, dtype=numpy_dtype(ctx.dtype))


DEFORM_CONV_HINT = OpHint(shapes=_deform_conv_shapes, values={"offset": _offsets}, generic_attributes=False)


# ---- Resize ----------------------------------------------------------------------------------------

# dyadic scales: length * scale is exact in float32, so output lengths do not depend on the product's rounding
RESIZE_SCALES = (0.25, 0.375, 0.5, 0.625, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)


def _resize_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """X of rank 1 to 4; the resized axes (a subset, any order, negative too, from version 18); scales (dyadic,
    output lengths >= 1) or sizes (1 to 8, with a keep_aspect_ratio_policy from 18); a roi for
    tf_crop_and_resize (starts and ends around [0, 1], crops and overhangs). Decided together here; the value
    hints hand the arrays over (an unused optional input is left off or empty)."""
    since = ctx.version.since
    use_scales = since == 10 or draw(BOOLEANS)
    # with sizes from version 18, the policies first: they matter only when two or more axes are resized
    policy = draw(st.sampled_from(["not_larger", "not_smaller", "stretch", OMIT])) if not use_scales else OMIT
    several = policy in ("not_larger", "not_smaller")
    rank = draw(integers(2 if several else 1, 4))
    shape = dims(draw, rank, 5)
    set_input_shape(ctx, "X", shape)
    axes = list(range(rank))
    if since >= 18 and draw(BOOLEANS):
        axes = draw(st.lists(integers(0, rank - 1), min_size=2 if several else 1, max_size=rank, unique=True))
        ctx.attributes["axes"] = [a - rank if draw(BOOLEANS) else a for a in axes]
    plan: dict[str, object] = {}
    transform = None
    if since >= 11:
        transforms = list(ctx.version.attributes["coordinate_transformation_mode"].allowed or ())
        if ctx.dtype == "string":  # a string tensor has no value for the crop's outside (extrapolation_value)
            transforms.remove("tf_crop_and_resize")
        transform = draw(st.sampled_from(transforms))
        ctx.attributes["coordinate_transformation_mode"] = transform
        if transform == "tf_crop_and_resize":
            starts = [draw(integers(-2, 6)) / 8 for _ in axes]
            plan["roi"] = np.asarray(starts + [s + draw(integers(1, 8)) / 8 for s in starts],
                                     dtype=numpy_dtype(ctx.element_of("T2")))
    # these transforms read the resized length, which the sources take differently where length * scale is not
    # whole (a reading): mostly whole lengths there, so that the cases test the rest
    whole = transform in ("align_corners", "pytorch_half_pixel", "tf_crop_and_resize") and draw(integers(0, 3)) > 0
    if use_scales:
        factors = []
        for a in axes:
            fits = [s for s in RESIZE_SCALES if math.floor(shape[a] * s) >= 1]
            if draw(integers(0, 3)) > 0:  # mostly not a scale that keeps the length (onnxruntime: a reading)
                fits = [s for s in fits if s == 1 or math.floor(shape[a] * s) != shape[a]]
            exact = [s for s in fits if (shape[a] * s).is_integer()]
            factors.append(draw(st.sampled_from(exact if whole and exact else fits)))
        plan["scales"] = np.asarray(factors, dtype=np.float32)
        if draw(BOOLEANS):
            policy = "stretch"  # the only policy scales allow
    else:
        plan["sizes"] = int64_array([draw(integers(1, 8)) for _ in axes])
    ctx.scratch["resize_policy"] = policy
    ctx.scratch["resize"] = plan


def _resize_input(name: str) -> ArrayHint:
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        plan = ctx.scratch["resize"]
        if name in plan:
            return np.asarray(plan[name])
        param = next(p for p in ctx.version.inputs if p.name == name)
        if param.optional and (name != "roi" or draw(BOOLEANS)):
            # an unused scales or sizes is left off the node (the text's way from version 13; a present empty one
            # is valid too, but onnx's shape inference rejects it unless it is an initializer: the readings)
            return None
        dtype = np.int64 if name == "sizes" else np.float32 if name == "scales" else numpy_dtype(ctx.element_of("T2"))
        return np.zeros(0, dtype=dtype)  # given but empty: unused

    return build


RESIZE_HINT = OpHint(shapes=_resize_shapes,
                     attributes={"keep_aspect_ratio_policy": lambda draw, ctx: ctx.scratch.get("resize_policy", OMIT),
                                 # antialiasing matters on shrinking axes only: drawn on in half the cases
                                 "antialias": lambda draw, ctx: draw(st.sampled_from([1, OMIT, 0, 1]))},
                     values={name: _resize_input(name) for name in ("roi", "scales", "sizes")})
