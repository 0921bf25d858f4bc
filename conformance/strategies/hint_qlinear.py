"""Hints for com.microsoft's quantized ops (QLinear*, QGemm): positive scales (onnxruntime's requantization needs
them, and a negative scale means nothing), and the operand shapes and per-tensor/per-column parameter shapes
their relations tie together, which generic draws hit too rarely."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import ArrayHint, OpHint, ShapeHint
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

OUTPUT_SCALES = frozenset({"C_scale", "Y_scale", "y_scale", "z_scale", "reduced_scale"})


def scale_between(name: str, low: float, high: float) -> ArrayHint:
    """Input `name` (a scale) in its drawn shape: half the time log-uniform in [low, high] as float32 (arbitrary
    float32 values, so ratios of scales round the way onnxruntime's float32 arithmetic must reproduce), half the
    time (one choice per case) powers of two whose exact ratios put many results on a .5 tie, where the rounding
    mode shows."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        if ctx.scratch.setdefault("power_of_two_scales", draw(BOOLEANS)):  # one choice for all the scales
            # every input scale 2^e, every output scale 2^(e+1): the ratios are 1/2, so about half the results of
            # an add (a quarter of a multiply's) fall on a .5 tie
            if "power_of_two_base" not in ctx.scratch:
                ctx.scratch["power_of_two_base"] = int(draw(integers(-5, -1)))
            exponent = int(ctx.scratch["power_of_two_base"]) + (1 if name in OUTPUT_SCALES else 0)
            return np.full(tuple(shape), 2.0**exponent, dtype=np.float32)
        rng = np.random.default_rng(draw(SEEDS))
        return np.asarray(low * (high / low) ** rng.random(tuple(shape)), dtype=np.float32)

    return build


def scalars(*names: str, present: tuple[str, ...] | bool = False) -> ShapeHint:
    """Scales and zero points of rank 0 (onnxruntime's shape inference for these ops rejects [1]). `present`: the
    optional zero points are always given, because onnxruntime's type inference for the op fails when one is
    absent (a gap of onnxruntime: its kernels read an absent zero point as 0, as the registry does; the op tests
    check the absent case against the zero case)."""
    def build(draw: DrawFn, ctx: DrawContext) -> None:
        del draw
        for name in names:
            if present is True or (isinstance(present, tuple) and name in present):
                ctx.omitted.discard(name)
            if name not in ctx.omitted:
                ctx.shapes[name] = []

    return build


def _per_tensor(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


# ---- QLinearConv (NCHW or, with channels_last, NHWC) ----------------------------------------------------------


# ---- QGemm --------------------------------------------------------------------------------------------------


# ---- QLinearConcat: (tensor, scale, zero point) triples of Y's type ------------------------------------------

def _qlinear_concat_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rank = draw(integers(1, 3))
    base = [draw(integers(1, max(1, ctx.max_side))) for _ in range(rank)]
    axis = draw(integers(-rank, rank - 1))
    ctx.attributes["axis"] = axis
    shapes: list[list[int]] = []
    for _ in range(draw(integers(1, 3))):
        dims = list(base)
        dims[axis % rank] = draw(integers(1, max(1, ctx.max_side)))
        shapes += [dims, _per_tensor(draw), _per_tensor(draw)]
    ctx.shapes["Y_scale"], ctx.shapes["Y_zero_point"] = _per_tensor(draw), _per_tensor(draw)
    ctx.shapes["inputs"] = shapes
    ctx.fixed.add("inputs")


def _qlinear_concat_inputs(draw: DrawFn, ctx: DrawContext) -> list[np.ndarray]:
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == "Y_zero_point"))
    low, high = (-128.0, 127.0) if element == "int8" else (0.0, 255.0)
    arrays = []
    for i, shape in enumerate(ctx.shapes["inputs"]):
        if i % 3 == 1:
            rng = np.random.default_rng(draw(SEEDS))
            arrays.append(np.asarray(0.005 * 200.0 ** rng.random(tuple(shape)), dtype=np.float32))
        else:
            arrays.append(fill_array(draw(SEEDS), element, shape, min_value=low, max_value=high))
    return arrays


QLINEAR_CONCAT_HINT = OpHint(shapes=_qlinear_concat_shapes, generic_attributes=False,
                             values={"Y_scale": scale_between("Y_scale", 0.005, 1.0),
                                     "inputs": _qlinear_concat_inputs})  # type: ignore[dict-item]


# ---- pooling: positive scales ----------------------------------------------------------------------------------


# ---- element-wise and reducing QLinear ops: 8-bit data and zero points over their whole range, float32 scales ---
