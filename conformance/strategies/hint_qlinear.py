"""Hints for com.microsoft's quantized ops (QLinear*, QGemm): positive scales (onnxruntime's requantization needs
them, and a negative scale means nothing), and the operand shapes and per-tensor/per-column parameter shapes
their relations tie together, which generic draws hit too rarely."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import _qlinear_conv_shapes
from conformance.strategies.hint_spatial import _pool_shapes
from conformance.strategies.hints import ArrayHint, OpHint, ShapeHint, set_input_shape
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


def full_range(name: str) -> ArrayHint:
    """Input `name` (8-bit data or a zero point) over its type's whole range, not the generic few small values."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        shape = ctx.shapes.get(name)
        if shape is None or name in ctx.omitted:
            return None
        param = next(p for p in ctx.version.inputs if p.name == name)
        return fill_array(draw(SEEDS), ctx.element_of(param.type), shape, min_value=-128.0, max_value=255.0)

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


def qlinear_values(scales: dict[str, tuple[float, float]], full: tuple[str, ...]) -> dict[str, ArrayHint]:
    return {**{n: scale_between(n, lo, hi) for n, (lo, hi) in scales.items()}, **{n: full_range(n) for n in full}}


def _per_tensor(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


# ---- QLinearConv (NCHW or, with channels_last, NHWC) ----------------------------------------------------------

def _com_qlinear_conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    _qlinear_conv_shapes(draw, ctx)
    if draw(BOOLEANS):
        ctx.attributes["channels_last"] = int(draw(st.sampled_from([0, 1])))
    if ctx.attributes.get("channels_last") == 1:
        nchw = ctx.shapes["x"]
        set_input_shape(ctx, "x", [nchw[0], *nchw[2:], nchw[1]])


COM_QLINEAR_CONV_HINT = OpHint(shapes=_com_qlinear_conv_shapes, generic_attributes=False,
                               values=qlinear_values({"x_scale": (0.005, 0.5), "w_scale": (0.005, 0.5),
                                                      "y_scale": (0.1, 4.0)},
                                                     ("x", "x_zero_point", "w", "w_zero_point", "y_zero_point")))


# ---- QGemm --------------------------------------------------------------------------------------------------

def _qgemm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    side = max(1, ctx.max_side)
    m, k, n = (draw(integers(1, side)) for _ in range(3))
    trans_a, trans_b = draw(st.sampled_from([0, 1])), draw(st.sampled_from([0, 1]))
    for name, value in (("transA", trans_a), ("transB", trans_b)):
        if value or draw(BOOLEANS):
            ctx.attributes[name] = value
    if draw(BOOLEANS):
        ctx.attributes["alpha"] = float(draw(st.sampled_from([0.5, 1.0, 2.0, -1.5])))
    set_input_shape(ctx, "A", [k, m] if trans_a else [m, k])
    set_input_shape(ctx, "B", [n, k] if trans_b else [k, n])
    ctx.shapes["a_scale"] = ctx.shapes["a_zero_point"] = _per_tensor(draw)
    ctx.shapes["b_scale"] = ctx.shapes["b_zero_point"] = list(draw(st.sampled_from([[], [1], [n]])))
    if "C" not in ctx.omitted:
        ctx.shapes["C"] = list(draw(st.sampled_from([[m, n], [n], [1, n], [m, 1], [1], []])))
    quantized = draw(BOOLEANS)
    for name in ("y_scale", "y_zero_point"):
        if quantized:
            ctx.omitted.discard(name)
            ctx.shapes[name] = ctx.shapes.get("y_scale") if name == "y_zero_point" else _per_tensor(draw)
        else:
            ctx.omitted.add(name)
            ctx.shapes[name] = None


QGEMM_HINT = OpHint(shapes=_qgemm_shapes, generic_attributes=False,
                    values=qlinear_values({"a_scale": (0.005, 0.5), "b_scale": (0.005, 0.5), "y_scale": (0.1, 4.0)},
                                          ("A", "a_zero_point", "B", "b_zero_point", "y_zero_point")))


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

_POOL_SCALARS = ("x_scale", "x_zero_point", "y_scale", "y_zero_point")


def _qlinear_average_pool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """ai.onnx pooling's window (kernel, strides, pads or auto_pad, ceil_mode, count_include_pad), sometimes on
    NHWC data; rank-0 parameters."""
    _pool_shapes(draw, ctx)
    attrs = ctx.attributes
    if attrs.get("ceil_mode") == 1 and attrs.get("auto_pad", "NOTSET") == "NOTSET" and draw(BOOLEANS):
        # a stride of 2 over an odd remainder, where ceil_mode adds the last, partial window
        shape = list(ctx.shapes["X"])
        r = len(shape) - 2
        pads = list(attrs.get("pads", [0] * (2 * r)))
        attrs["strides"] = [2] * r
        for i in range(r):
            if (shape[2 + i] + pads[i] + pads[i + r] - attrs["kernel_shape"][i]) % 2 == 0:
                shape[2 + i] += 1
        set_input_shape(ctx, "X", shape)
    if draw(BOOLEANS):
        ctx.attributes["channels_last"] = int(draw(st.sampled_from([0, 1])))
    if ctx.attributes.get("channels_last") == 1:
        nchw = ctx.shapes["X"]
        set_input_shape(ctx, "X", [nchw[0], *nchw[2:], nchw[1]])
    scalars(*_POOL_SCALARS, present=True)(draw, ctx)


QLINEAR_AVERAGE_POOL_HINT = OpHint(shapes=_qlinear_average_pool_shapes, generic_attributes=False,
                                   values=qlinear_values({"x_scale": (0.01, 1.0), "y_scale": (0.01, 1.0)},
                                                         ("X", "x_zero_point", "y_zero_point")))
QLINEAR_POOL_HINT = OpHint(shapes=scalars(*_POOL_SCALARS, present=True),
                           values=qlinear_values({"x_scale": (0.01, 1.0), "y_scale": (0.01, 1.0)},
                                                 ("X", "x_zero_point", "y_zero_point")))


# ---- element-wise and reducing QLinear ops: 8-bit data and zero points over their whole range, float32 scales ---

_ADD_SCALES = {"A_scale": (0.005, 1.0), "B_scale": (0.005, 1.0), "C_scale": (0.01, 1.0)}
_ADD_SCALARS = ("A_scale", "A_zero_point", "B_scale", "B_zero_point", "C_scale", "C_zero_point")
QLINEAR_ADD_HINT = OpHint(shapes=scalars(*_ADD_SCALARS, present=True),
                          values=qlinear_values(_ADD_SCALES, ("A", "A_zero_point", "B", "B_zero_point",
                                                              "C_zero_point")))
QLINEAR_MUL_HINT = OpHint(shapes=scalars(*_ADD_SCALARS, present=True),
                          values=qlinear_values({"A_scale": (0.005, 0.5), "B_scale": (0.005, 0.5),
                                                 "C_scale": (0.05, 2.0)},
                                                ("A", "A_zero_point", "B", "B_zero_point", "C_zero_point")))
# sigmoid's output lies in [0, 1]: a Y_scale near 1/256 spreads it over the 8-bit range
# onnxruntime's sigmoid and leaky-relu kernels abort (an out-of-range vector index) when Y_zero_point is absent:
# it is always given here, and the op tests check the absent case against a zero Y_zero_point
_UNARY_SCALARS = ("X_scale", "X_zero_point", "Y_scale", "Y_zero_point")
QLINEAR_SIGMOID_HINT = OpHint(shapes=scalars(*_UNARY_SCALARS, present=("Y_zero_point",)),
                              values=qlinear_values({"X_scale": (0.01, 0.2), "Y_scale": (1 / 300, 1 / 64)},
                                                    ("X", "X_zero_point", "Y_zero_point")))
QLINEAR_LEAKY_RELU_HINT = OpHint(shapes=scalars(*_UNARY_SCALARS, present=("Y_zero_point",)),
                                 values=qlinear_values({"X_scale": (0.005, 1.0), "Y_scale": (0.005, 1.0)},
                                                       ("X", "X_zero_point", "Y_zero_point")))
QLINEAR_SOFTMAX_HINT = OpHint(values=qlinear_values({"X_scale": (0.01, 0.5), "y_scale": (1 / 300, 1 / 64)},
                                                    ("X", "x_zero_point", "y_zero_point")))
QLINEAR_WHERE_HINT = OpHint(values=qlinear_values({"x_scale": (0.005, 1.0), "y_scale": (0.005, 1.0),
                                                   "z_scale": (0.005, 1.0)},
                                                  ("X", "x_zero_point", "Y", "y_zero_point", "z_zero_point")))
_MEAN_SCALARS = ("data_scale", "data_zero_point", "reduced_scale", "reduced_zero_point")
QLINEAR_REDUCE_MEAN_HINT = OpHint(shapes=scalars(*_MEAN_SCALARS),
                                  values=qlinear_values({"data_scale": (0.005, 1.0), "reduced_scale": (0.005, 1.0)},
                                                        ("data", "data_zero_point", "reduced_zero_point")))
