"""Hints for the image ops (pooling variants, resampling, RoI and box ops): inputs whose values or shapes must
agree with each other in ways the schemas check but cannot construct.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_spatial import POOL_HINT
from conformance.strategies.hints import OpHint, dims, set_first_shape


def _lp_order(draw: DrawFn, ctx: DrawContext) -> float | int:
    """p of the Lp norm: small orders, 1 and 2 most used; a float at version 1 (also a fractional one)."""
    if ctx.version.attributes["p"].type == "float":
        return float(draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])))
    return int(draw(st.sampled_from([1, 2, 3])))


# the window fits the drawn spatial dims (the pooling hint), and p is drawn too
LP_POOL_HINT = OpHint(shapes=POOL_HINT.shapes, attributes={"p": _lp_order}, generic_attributes=False)


def _global_pool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    set_first_shape(ctx, dims(draw, draw(st.integers(3, 5)), ctx.max_side))


# one to three spatial axes, as the pooling hints draw (onnxruntime's pooling kernels stop at three)
GLOBAL_LP_POOL_HINT = OpHint(shapes=_global_pool_shapes, attributes={"p": _lp_order})
