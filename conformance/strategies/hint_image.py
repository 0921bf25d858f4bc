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
from conformance.strategies.hints import ArrayHint, OpHint, dims, int64_array, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers

# ---- MaxUnpool --------------------------------------------------------------------------------------









# ---- MaxRoiPool, RoiAlign -------------------------------------------------------------------------















# ---- NonMaxSuppression ---------------------------------------------------------------------------









# ---- AffineGrid, GridSample -----------------------------------------------------------------------











# ---- DeformConv ------------------------------------------------------------------------------------







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
