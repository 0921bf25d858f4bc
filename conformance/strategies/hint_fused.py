"""Hints for onnxruntime's fused ops (FusedConv, NhwcConv, FusedGemm, FusedMatMul, BiasSoftmax ...): Conv's window
with a residual Z of the output's shape and a drawn activation with its parameters, matrix products whose operands
are drawn transposed as the trans flags say, a bias that repeats over the softmax rows as is_inner_broadcast says.

Activation parameters are drawn away from every activation's usual default (LeakyRelu's 0.01, HardSigmoid's 0.2
and 0.5 ...), so a backend that ignores one gets caught.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import matmul_shapes
from conformance.strategies.hint_spatial import CONV_HINTS, CONV_TRANSPOSE_HINT, POOL_HINT
from conformance.strategies.hints import OpHint, dims, int64_array, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array

_MLAS_PARAMS: dict[str, st.SearchStrategy[list[float]]] = {
    "LeakyRelu": st.sampled_from([[0.25], [1.5], [-0.5]]),
    "Clip": st.sampled_from([[-0.5, 0.75], [0.0, 1.5], [-1.25, 0.25]]),
    "HardSigmoid": st.sampled_from([[0.75, 0.25], [0.375, 0.625], [1.5, -0.25]]),
}


def _conv_output_spatial(ctx: DrawContext, spatial: list[int], kernel: list[int]) -> list[int]:
    r = len(spatial)
    a = ctx.attributes
    strides = a.get("strides", [1] * r)
    dilations = a.get("dilations", [1] * r)
    auto_pad = a.get("auto_pad", "NOTSET")
    pads = a.get("pads", [0] * (2 * r))
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return [math.ceil(s / t) for s, t in zip(spatial, strides, strict=True)]
    padsum = [0 if auto_pad == "VALID" else pads[i] + pads[i + r] for i in range(r)]
    return [(spatial[i] + padsum[i] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1 for i in range(r)]


def _draw_mlas_activation(draw: DrawFn, ctx: DrawContext) -> None:
    activation = draw(st.sampled_from([None, "Relu", "Tanh", "Sigmoid", "LeakyRelu", "Clip", "HardSigmoid"]))
    if activation is None:
        return
    ctx.attributes["activation"] = activation
    if activation in _MLAS_PARAMS:
        ctx.attributes["activation_params"] = draw(_MLAS_PARAMS[activation])


def _fused_conv_shapes(channels_last: bool, fused: bool):  # type: ignore[no-untyped-def]
    conv_shapes = CONV_HINTS[0].shapes
    assert conv_shapes is not None

    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        conv_shapes(draw, ctx)
        names = [p.name for p in ctx.version.inputs]
        x, w = ctx.shapes[names[0]], ctx.shapes[names[1]]
        y = [x[0], w[0], *_conv_output_spatial(ctx, x[2:], w[2:])]
        if channels_last:
            x = [x[0], *x[2:], x[1]]
            y = [y[0], *y[2:], y[1]]
            set_input_shape(ctx, names[0], x)
        if fused:
            _draw_mlas_activation(draw, ctx)
            if "Z" not in ctx.omitted:
                ctx.shapes["Z"] = y
                ctx.fixed.add("Z")

    return shapes


FUSED_CONV_HINT = OpHint(shapes=_fused_conv_shapes(False, True), generic_attributes=False)
NHWC_CONV_HINT = OpHint(shapes=_fused_conv_shapes(True, False), generic_attributes=False)
NHWC_FUSED_CONV_HINT = OpHint(shapes=_fused_conv_shapes(True, True), generic_attributes=False)


# ---- FusedGemm, FusedMatMul, TransposeMatMul, GemmFastGelu --------------------------------------------------

_FUNCTOR_PARAMS = {  # activation -> the attributes it reads
    "Elu": ("alpha",), "HardSigmoid": ("alpha", "beta"), "LeakyRelu": ("alpha",), "ThresholdedRelu": ("alpha",),
    "Selu": ("alpha", "gamma"), "ParametricSoftplus": ("alpha", "beta"), "ScaledTanh": ("alpha", "beta"),
    "Relu": (), "Sigmoid": (), "Softplus": (), "Softsign": (), "Tanh": (),
}
_FUNCTOR_VALUES = st.sampled_from([0.25, 0.75, 1.5, -0.5, 2.0])


def _draw_functor_activation(draw: DrawFn, ctx: DrawContext) -> None:
    activation = draw(st.sampled_from(sorted(_FUNCTOR_PARAMS)))
    ctx.attributes["activation"] = activation
    for name in _FUNCTOR_PARAMS[activation]:
        ctx.attributes[f"activation_{name}"] = draw(_FUNCTOR_VALUES)
    if draw(BOOLEANS):  # a parameter the activation does not read changes nothing
        spare = [n for n in ("alpha", "beta", "gamma") if n not in _FUNCTOR_PARAMS[activation]]
        if spare:
            ctx.attributes[f"activation_{draw(st.sampled_from(spare))}"] = draw(_FUNCTOR_VALUES)


def _fused_gemm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    m, k, n = (draw(integers(1, 6)) for _ in range(3))
    trans_a, trans_b = draw(integers(0, 1)), draw(integers(0, 1))
    ctx.attributes.update({"transA": trans_a, "transB": trans_b})
    for name in ("alpha", "beta"):
        if draw(BOOLEANS):
            ctx.attributes[name] = draw(st.sampled_from([0.5, -1.5, 2.0, 0.0]))
    set_input_shape(ctx, "A", [k, m] if trans_a else [m, k])
    set_input_shape(ctx, "B", [n, k] if trans_b else [k, n])
    if "C" not in ctx.omitted:
        set_input_shape(ctx, "C", list(draw(st.sampled_from([[m, n], [n], [1], [m, 1], [1, n], []]))))
    _draw_functor_activation(draw, ctx)


FUSED_GEMM_HINT = OpHint(shapes=_fused_gemm_shapes, generic_attributes=False)


def _raw_operand(effective: list[int], trans: int, trans_batch: int) -> list[int]:
    """The operand shape whose FusedMatMul transpositions give `effective`."""
    if len(effective) < 2:
        return effective
    *batch, rows, cols = effective
    if trans_batch and batch:
        return [cols, *batch, rows] if trans else [rows, *batch, cols]
    return [*batch, cols, rows] if trans else effective


def _transposed_matmul_shapes(batch_flags: bool, activation: bool):  # type: ignore[no-untyped-def]
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        a, b = matmul_shapes(draw, ctx)
        flags = {name: draw(integers(0, 1)) for name in ("transA", "transB")}
        if batch_flags and len(a) == len(b) >= 3:  # onnxruntime: transBatch needs one rank, 3 or more
            flags.update({name: draw(integers(0, 1)) for name in ("transBatchA", "transBatchB")})
        ctx.attributes.update(flags)
        if draw(BOOLEANS):
            ctx.attributes["alpha"] = draw(st.sampled_from([0.5, -1.5, 2.0]))
        set_input_shape(ctx, "A", _raw_operand(a, flags["transA"], flags.get("transBatchA", 0)))
        set_input_shape(ctx, "B", _raw_operand(b, flags["transB"], flags.get("transBatchB", 0)))
        if activation:
            _draw_functor_activation(draw, ctx)

    return shapes


FUSED_MATMUL_HINT = OpHint(shapes=_transposed_matmul_shapes(True, False), generic_attributes=False)
TRANSPOSE_MATMUL_HINT = OpHint(shapes=_transposed_matmul_shapes(False, False), generic_attributes=False)
FUSED_MATMUL_ACTIVATION_HINT = OpHint(shapes=_transposed_matmul_shapes(True, True), generic_attributes=False)


def _gemm_fast_gelu_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    k, n = draw(integers(1, ctx.max_side)), draw(integers(1, ctx.max_side))
    lead = dims(draw, draw(integers(0, 2)), 3)
    set_input_shape(ctx, "X", [*lead, k])
    set_input_shape(ctx, "W", [k, n])
    if "bias" not in ctx.omitted:
        set_input_shape(ctx, "bias", [n])


GEMM_FAST_GELU_HINT = OpHint(shapes=_gemm_fast_gelu_shapes)


# ---- BiasSoftmax ---------------------------------------------------------------------------------------------

def _bias_softmax_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    rank = draw(integers(1, 4))
    shape = dims(draw, rank, ctx.max_side)
    ax = draw(integers(0, rank - 1))
    inner = draw(integers(0, 1))
    cut = draw(integers(0, ax))
    if inner:  # bias keeps the outer batch dims [0, cut) and lacks the inner ones [cut, ax)
        bias = [*shape[:cut], *([1] * (ax - cut)), *shape[ax:]]
    else:  # bias lacks the outer batch dims [0, cut): ones, or dropped
        ones = draw(integers(0, cut))
        bias = [*([1] * ones), *shape[cut:]]
    ctx.attributes["axis"] = ax - rank if draw(BOOLEANS) else ax
    ctx.attributes["is_inner_broadcast"] = inner
    set_input_shape(ctx, "data", shape)
    set_input_shape(ctx, "bias", bias)


BIAS_SOFTMAX_HINT = OpHint(shapes=_bias_softmax_shapes, generic_attributes=False)


def _quick_gelu_alpha(draw: DrawFn, ctx: DrawContext) -> object:
    return draw(st.sampled_from([0.5, -1.25, 3.0])) if draw(BOOLEANS) else OMIT


QUICK_GELU_HINT = OpHint(attributes={"alpha": _quick_gelu_alpha})


def _scalar_scale(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    if "scale" in ctx.omitted:
        return None
    param = next(p for p in ctx.version.inputs if p.name == "scale")
    return fill_array(draw(SEEDS), ctx.element_of(param.type), [], min_value=-3, max_value=3)


def _scaled_si_lu_alpha(draw: DrawFn, ctx: DrawContext) -> object:
    return draw(st.sampled_from([0.5, -1.5, 2.25])) if draw(integers(0, 3)) else OMIT


# ScaledSiLU: alpha away from 1 (a backend ignoring it is caught), the scale input in [-3, 3] when given
SCALED_SILU_HINT = OpHint(attributes={"alpha": _scaled_si_lu_alpha}, values={"scale": _scalar_scale})


# ---- SwiGLU, GatedAdd ------------------------------------------------------------------------------------

def _swiglu_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    shape = dims(draw, draw(integers(1, 3)), ctx.max_side)
    if "up" in ctx.omitted:
        shape[-1] *= 2  # gate's last dim holds both halves
    else:
        set_input_shape(ctx, "up", shape)
    set_input_shape(ctx, "gate", shape)
    # a limit that clamps some of the drawn values (|x| <= 4), or none (0 or less)
    if draw(BOOLEANS):
        ctx.attributes["limit"] = draw(st.sampled_from([0.0, -1.0, 0.75, 2.5]))
    if draw(BOOLEANS):
        ctx.attributes["activation_alpha"] = draw(st.sampled_from([1.702, 0.5, -1.25]))
    if draw(BOOLEANS):
        ctx.attributes["activation_beta"] = draw(st.sampled_from([1.0, -0.5, 2.0]))
    if draw(BOOLEANS):
        ctx.attributes["round_activation"] = draw(integers(0, 1))


SWIGLU_HINT = OpHint(shapes=_swiglu_shapes, generic_attributes=False)


def _gated_add_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """X and Y of one shape; the plain gate (..., 1), or for bfloat16 (the one type onnxruntime implements
    projected mode for) now and then the activation (..., K) with gate_weight (K, 1)."""
    shape = dims(draw, draw(integers(1, 3)), ctx.max_side)
    set_input_shape(ctx, "X", shape)
    set_input_shape(ctx, "Y", shape)
    projected = ctx.dtype == "bfloat16" and "gate_weight" not in ctx.omitted and draw(BOOLEANS)
    if not projected:
        ctx.omitted.add("gate_weight")
        ctx.shapes["gate_weight"] = None
        set_input_shape(ctx, "gate", [*shape[:-1], 1])
        return
    k = draw(integers(1, 6))
    set_input_shape(ctx, "gate", [*shape[:-1], k])
    set_input_shape(ctx, "gate_weight", [k, 1])


GATED_ADD_HINT = OpHint(shapes=_gated_add_shapes, generic_attributes=False)


# ---- NhwcMaxPool -----------------------------------------------------------------------------------------

def _nhwc_pool_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """MaxPool's window (pads below the kernel, the dilated kernel inside the padded input), x channels last."""
    pool_shapes = POOL_HINT.shapes
    assert pool_shapes is not None
    pool_shapes(draw, ctx)
    x = ctx.shapes["x"]
    if ctx.attributes.get("ceil_mode") == 1 and "auto_pad" not in ctx.attributes:
        x[2:] = _where_ceil_shows(ctx, x[2:])
    if ctx.attributes.get("auto_pad") in ("SAME_UPPER", "SAME_LOWER") and draw(BOOLEANS):
        # dilated SAME windows: the padding must grow with the dilation (onnxruntime's gap, see its expectations)
        r = len(x) - 2
        ctx.attributes["kernel_shape"] = [max(k, 2) for k in ctx.attributes["kernel_shape"]]
        ctx.attributes["dilations"] = [2] * r
    set_input_shape(ctx, "x", [x[0], *x[2:], x[1]])


def _where_ceil_shows(ctx: DrawContext, spatial: list[int]) -> list[int]:
    """Stride 2, no end padding, a dilated kernel of 2 or more and an odd S + begin pad - kernel on every axis: ceil
    then adds a window that starts inside the input (not in the padding, where it would be dropped again)."""
    r = len(spatial)
    kernel = list(ctx.attributes["kernel_shape"])
    dilations = list(ctx.attributes.get("dilations", [1] * r))
    pads = list(ctx.attributes.get("pads", [0] * (2 * r)))
    out = list(spatial)
    for i in range(r):
        kernel[i] = max(kernel[i], 2)
        ek = (kernel[i] - 1) * dilations[i] + 1
        pads[i], pads[i + r] = min(pads[i], kernel[i] - 1), 0
        out[i] = max(out[i], ek - pads[i])
        if (out[i] + pads[i] - ek) % 2 == 0:
            out[i] += 1
    ctx.attributes.update(kernel_shape=kernel, strides=[2] * r, pads=pads)
    return out


NHWC_MAX_POOL_HINT = OpHint(shapes=_nhwc_pool_shapes, generic_attributes=False)


# ---- ConvTransposeWithDynamicPads -------------------------------------------------------------------------

def _conv_transpose_dynamic_pads_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """ConvTranspose's window, its pads moved from the attribute to the int64 input Pads (B comes after Pads)."""
    transpose_shapes = CONV_TRANSPOSE_HINT.shapes
    assert transpose_shapes is not None
    transpose_shapes(draw, ctx)
    pads = ctx.attributes.pop("pads")
    if "output_padding" in ctx.attributes:  # below the stride (convtransposewithdynamicpads_c6)
        strides = ctx.attributes["strides"]
        ctx.attributes["output_padding"] = [min(p, s - 1) for p, s in zip(ctx.attributes["output_padding"], strides,
                                                                             strict=True)]
    x, w = ctx.shapes["X"], ctx.shapes["W"]
    set_input_shape(ctx, "X", x)
    set_input_shape(ctx, "W", w)
    ctx.scratch["dynamic_pads"] = pads
    ctx.omitted.discard("Pads")  # onnxruntime's kernel requires it (convtransposewithdynamicpads_c5)
    set_input_shape(ctx, "Pads", [len(pads)])
    if "B" not in ctx.omitted:
        set_input_shape(ctx, "B", [w[1] * ctx.attributes.get("group", 1)])


def _dynamic_pads(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    return int64_array(ctx.scratch["dynamic_pads"])


CONV_TRANSPOSE_DYNAMIC_PADS_HINT = OpHint(shapes=_conv_transpose_dynamic_pads_shapes, values={"Pads": _dynamic_pads},
                                          generic_attributes=False)


# ---- the table's entries -----------------------------------------------------------------------------------

FUSED_HINTS: dict[tuple[str, str], tuple[OpHint, ...]] = {
    # Conv's window; Z of the output's shape; an MLAS activation with its activation_params
    ("com.microsoft", "FusedConv"): (FUSED_CONV_HINT,),
    ("com.microsoft", "NhwcConv"): (NHWC_CONV_HINT,),
    ("com.microsoft", "NhwcFusedConv"): (NHWC_FUSED_CONV_HINT,),
    # Gemm's shapes and C; an activation functor with the alpha/beta/gamma it reads
    ("com.microsoft", "FusedGemm"): (FUSED_GEMM_HINT,),
    # MatMul's shapes, drawn transposed as transA/B and transBatchA/B say
    ("com.microsoft", "FusedMatMul"): (FUSED_MATMUL_HINT,),
    ("com.microsoft", "TransposeMatMul"): (TRANSPOSE_MATMUL_HINT,),
    ("com.microsoft", "FusedMatMulActivation"): (FUSED_MATMUL_ACTIVATION_HINT,),
    ("com.microsoft", "GemmFastGelu"): (GEMM_FAST_GELU_HINT,),
    # a bias of whole softmax rows that repeat over data's rows as is_inner_broadcast says
    ("com.microsoft", "BiasSoftmax"): (BIAS_SOFTMAX_HINT,),
    ("com.microsoft", "QuickGelu"): (QUICK_GELU_HINT,),
    ("com.microsoft", "ScaledSiLU"): (SCALED_SILU_HINT,),
    # limits that clamp, activation_alpha and activation_beta off their defaults, up given or packed in gate
    ("com.microsoft", "SwiGLU"): (SWIGLU_HINT,),
    ("com.microsoft", "GatedAdd"): (GATED_ADD_HINT,),
    ("com.microsoft", "NhwcMaxPool"): (NHWC_MAX_POOL_HINT,),
    # ConvTranspose's window with the pads given as the input Pads
    ("com.microsoft", "ConvTransposeWithDynamicPads"): (CONV_TRANSPOSE_DYNAMIC_PADS_HINT,),
}
