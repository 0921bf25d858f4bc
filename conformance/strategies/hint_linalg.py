"""Hints for the matrix, normalization and quantization ops: shapes that contract, scales that fit a
quantization axis or block, zero points of the output's type, positive scales.

Each builder draws the shapes first, then what must agree with them, so every case is valid by construction
(the constraints then only confirm it).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import FLOATS, numpy_dtype
from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_cast import code_of
from conformance.strategies.hint_spatial import draw_window
from conformance.strategies.hints import ArrayHint, OpHint, ShapeHint, ValueHint, dims, set_input_shape, values_in
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import allowed_elements


def positive(name: str, low: float = 0.25, high: float = 2.0) -> ArrayHint:
    """Input `name` (a scale) filled with values in [low, high] (quarter steps) in its drawn shape and type."""
    return values_in(name, low, high)

# ---- MatMul, MatMulInteger, QLinearMatMul ------------------------------------------------------------


def matmul_shapes(draw: DrawFn, ctx: DrawContext) -> tuple[list[int], list[int]]:
    """Shapes of A and B for numpy.matmul: ranks 1..4 (1-D promotion), a shared K, batch dims that broadcast
    (each side may hold a 1 or lack leading dims)."""
    side = ctx.max_side
    m, k, n = (draw(integers(1, side)) for _ in range(3))
    ra, rb = draw(st.sampled_from([1, 2, 2, 3, 4])), draw(st.sampled_from([1, 2, 2, 3, 4]))  # matrices most
    batch = dims(draw, max(ra, rb) - 2, 3) if max(ra, rb) > 2 else []

    def batch_of(rank: int) -> list[int]:
        own = batch[len(batch) - max(rank - 2, 0):] if rank > 2 else []
        return [1 if draw(BOOLEANS) and draw(BOOLEANS) else d for d in own]

    a = [k] if ra == 1 else [*batch_of(ra), m, k]
    b = [k] if rb == 1 else [*batch_of(rb), k, n]
    return a, b


def _matmul_inputs(first: str, second: str) -> OpHint:
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        a, b = matmul_shapes(draw, ctx)
        set_input_shape(ctx, first, a)
        set_input_shape(ctx, second, b)

    return OpHint(shapes=shapes)


MATMUL_HINT = _matmul_inputs("A", "B")


def _row_zero_point_shape(draw: DrawFn, a: list[int]) -> list[int]:
    """Per tensor, or (mostly, where A allows) per row: [M] for a 2-D A, A's shape with the last dim 1."""
    options = ([[*a[:-1], 1]] * 2 if len(a) >= 2 else []) + ([[a[0]]] * 3 if len(a) == 2 else [])
    return list(draw(st.sampled_from([[], [1], *options])))


def _column_zero_point_shape(draw: DrawFn, b: list[int]) -> list[int]:
    """Per tensor, or (mostly, where B allows) per column: [N] for a 2-D B, B's shape with dim -2 of 1."""
    options = ([[*b[:-2], 1, b[-1]]] * 2 if len(b) >= 2 else []) + ([[b[1]]] * 3 if len(b) == 2 else [])
    return list(draw(st.sampled_from([[], [1], *options])))


def _matmul_integer_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    a, b = matmul_shapes(draw, ctx)
    set_input_shape(ctx, "A", a)
    set_input_shape(ctx, "B", b)
    if "a_zero_point" not in ctx.omitted:
        ctx.shapes["a_zero_point"] = _row_zero_point_shape(draw, a)
    if "b_zero_point" not in ctx.omitted:
        ctx.shapes["b_zero_point"] = _column_zero_point_shape(draw, b)


MATMUL_INTEGER_HINT = OpHint(shapes=_matmul_integer_shapes)


def _qlinear_matmul_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    a, b = matmul_shapes(draw, ctx)
    set_input_shape(ctx, "a", a)
    set_input_shape(ctx, "b", b)
    ctx.shapes["a_scale"] = ctx.shapes["a_zero_point"] = _row_zero_point_shape(draw, a)
    ctx.shapes["b_scale"] = ctx.shapes["b_zero_point"] = _column_zero_point_shape(draw, b)
    ctx.shapes["y_scale"] = ctx.shapes["y_zero_point"] = list(draw(st.sampled_from([[], [1]])))


QLINEAR_MATMUL_HINT = OpHint(shapes=_qlinear_matmul_shapes,
                             values={name: positive(name) for name in ("a_scale", "b_scale", "y_scale")})


# ---- LayerNormalization, RMSNormalization, GroupNormalization --------------------------------------------

NUMPY_STASH_TYPES = (1, 10, 11)  # float, float16, double: the stash types numpy holds (16, bfloat16, is issue 10's)


def unidirectional_to(draw: DrawFn, shape: list[int], axis: int) -> list[int]:
    """A shape that broadcasts to `shape` unidirectionally: mostly the normalized dims `shape[axis:]`, sometimes a
    shorter or longer suffix with some dims 1."""
    if draw(BOOLEANS):
        return list(shape[axis:])
    length = draw(integers(0, len(shape)))
    suffix = list(shape[len(shape) - length:])
    return [1 if draw(BOOLEANS) else d for d in suffix]


def _axis_and_shape(draw: DrawFn, ctx: DrawContext) -> tuple[list[int], int]:
    shape = dims(draw, draw(integers(1, 4)), ctx.max_side)
    axis = draw(integers(-len(shape), len(shape) - 1))
    ctx.attributes["axis"] = axis
    return shape, axis % len(shape)


def _layer_norm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    shape, axis = _axis_and_shape(draw, ctx)
    set_input_shape(ctx, "X", shape)
    set_input_shape(ctx, "Scale", unidirectional_to(draw, shape, axis))
    if "B" not in ctx.omitted:
        set_input_shape(ctx, "B", unidirectional_to(draw, shape, axis))


def _stash(allowed: tuple[int, ...]) -> ValueHint:
    def value(draw: DrawFn, ctx: DrawContext) -> object:
        return OMIT if draw(BOOLEANS) else draw(st.sampled_from(allowed))

    return value


LAYER_NORM_HINT = OpHint(shapes=_layer_norm_shapes, attributes={"stash_type": _stash((1,))})


GROUP_NORM_HINTS = (OpHint(attributes={"stash_type": _stash(NUMPY_STASH_TYPES)}, since=21),)


def _rms_norm_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    shape, axis = _axis_and_shape(draw, ctx)
    set_input_shape(ctx, "X", shape)
    set_input_shape(ctx, "scale", unidirectional_to(draw, shape, axis))


RMS_NORM_HINT = OpHint(shapes=_rms_norm_shapes, attributes={"stash_type": _stash(NUMPY_STASH_TYPES)})


# ---- QuantizeLinear, DequantizeLinear ------------------------------------------------------------------------



def _quantization_shapes(scale: str, zero_point: str) -> ShapeHint:
    """x of rank 0..4; scale and zero point per tensor, per axis (13) or blocked (21), with axis and block_size."""
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        since = ctx.version.since
        x = dims(draw, draw(integers(0, 4)), ctx.max_side)
        modes = ["tensor"] + (["axis"] if since >= 13 and x else []) + (["block"] if since >= 21 and x else [])
        mode = draw(st.sampled_from(modes))
        if mode == "block" and all(d == 1 for d in x):
            mode = "axis"  # only one-element blocked scales fit (see below)
        param: list[int] = list(draw(st.sampled_from([[], [1]])))
        if mode != "tensor":
            axis = draw(integers(-len(x), len(x) - 1))
            ctx.attributes["axis"] = axis
            if mode == "axis":
                param = [x[axis]]
            else:
                block = draw(integers(1, x[axis] + 1))
                param = [-(-d // block) if i == axis % len(x) else d for i, d in enumerate(x)]
                if int(np.prod(param)) == 1:  # onnxruntime takes a one-element scale for per tensor and refuses
                    block = max(1, x[axis] - 1)  # a block size: keep such cases to the unit tests
                    param = [-(-d // block) if i == axis % len(x) else d for i, d in enumerate(x)]
                ctx.attributes["block_size"] = block
        elif since >= 13 and draw(BOOLEANS):
            ctx.attributes["axis"] = draw(integers(-4, 3))  # ignored per tensor
        set_input_shape(ctx, "x", x)
        ctx.shapes[scale] = param
        if zero_point not in ctx.omitted:
            ctx.shapes[zero_point] = list(param)

    return shapes


def _magnitudes(name: str) -> ArrayHint:
    """Input `name` with values of a drawn magnitude (small, or large enough to saturate 8 and 16 bits)."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        param = next(p for p in ctx.version.inputs if p.name == name)
        element = ctx.element_of(param.type)
        large = 60000.0 if element == "float16" else 70000.0  # 16-bit outputs: float16 quotients round visibly
        bound = draw(st.sampled_from([4.0, 64.0, 400.0, large, large]))
        return fill_array(draw(SEEDS), element, ctx.shapes[name], min_value=-bound, max_value=bound)

    return build


def _output_dtype(draw: DrawFn, ctx: DrawContext) -> object:
    """0 (the zero point's type, else uint8) or the code of the zero point's type, or any quantized output."""
    variable = next(p.type for p in ctx.version.inputs if p.name == "y_zero_point")
    if "y_zero_point" not in ctx.omitted:
        return draw(st.sampled_from([OMIT, 0, code_of(ctx.element_of(variable))]))
    target = draw(st.sampled_from(allowed_elements(ctx.version, variable)))
    ctx.type_bindings[variable] = target
    return code_of(target)


def _zero_point(name: str) -> ArrayHint:
    """A zero point: any value of an integer type; 0 for a float8 or float4 type (which take no other)."""
    def build(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
        if name in ctx.omitted:
            return None
        element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
        if element in FLOATS:
            return np.zeros(ctx.shapes[name], dtype=numpy_dtype(element))
        return fill_array(draw(SEEDS), element, ctx.shapes[name])

    return build


def _dequantized_type(draw: DrawFn, ctx: DrawContext) -> object:
    """Any output type; one is needed when x_scale is float8e8m0, whose type y cannot take."""
    if ctx.element_of("T2") == "float8e8m0":
        return draw(st.sampled_from([1, 10, 16]))
    return draw(st.sampled_from([OMIT, 0, 1, 10, 16]))


def _precision(draw: DrawFn, ctx: DrawContext) -> object:
    # float and float16, float16 most (double is valid too, but onnxruntime refuses it: the unit tests have it)
    return draw(st.sampled_from([OMIT, 0, 1, 10, 10, 10]))


def _unblocked(draw: DrawFn, ctx: DrawContext) -> object:
    return draw(st.sampled_from([OMIT, 0]))  # the shapes hint sets block_size when it draws a blocked scale


QUANTIZE_HINTS = (
    OpHint(shapes=_quantization_shapes("y_scale", "y_zero_point"),
           values={"x": _magnitudes("x"), "y_scale": positive("y_scale"), "y_zero_point": _zero_point("y_zero_point")},
           until=20),
    OpHint(shapes=_quantization_shapes("y_scale", "y_zero_point"),
           values={"x": _magnitudes("x"), "y_scale": positive("y_scale"), "y_zero_point": _zero_point("y_zero_point")},
           attributes={"output_dtype": _output_dtype, "block_size": _unblocked,
                       "precision": _precision},
           since=21),
)

_DEQUANTIZE_VALUES = {"x_scale": positive("x_scale"), "x_zero_point": _zero_point("x_zero_point")}
DEQUANTIZE_HINTS = (
    OpHint(shapes=_quantization_shapes("x_scale", "x_zero_point"), values=_DEQUANTIZE_VALUES, until=20),
    OpHint(shapes=_quantization_shapes("x_scale", "x_zero_point"), values=_DEQUANTIZE_VALUES,
           attributes={"block_size": _unblocked}, since=21, until=22),
    OpHint(shapes=_quantization_shapes("x_scale", "x_zero_point"), values=_DEQUANTIZE_VALUES,
           attributes={"block_size": _unblocked, "output_dtype": _dequantized_type}, since=23),
)


# ---- ConvInteger, QLinearConv ----------------------------------------------------------------------------------

def _conv_operands(draw: DrawFn, ctx: DrawContext) -> int:
    """x, w and the window attributes of a grouped convolution that fits (as Conv's hint draws them); returns M."""
    w = draw_window(draw, ctx, allow_dilations=True, allow_auto_pad=True)
    group = draw(integers(1, 2))
    channels, maps = group * draw(integers(1, 2)), group * draw(integers(1, 2))
    ctx.attributes["dilations"] = w.dilations
    if draw(BOOLEANS):
        ctx.attributes["kernel_shape"] = w.kernel
    if draw(BOOLEANS):
        ctx.attributes["strides"] = w.strides
    if w.auto_pad != "NOTSET":
        ctx.attributes["auto_pad"] = w.auto_pad
    elif draw(BOOLEANS):
        ctx.attributes["pads"] = w.pads
    if group > 1 or draw(BOOLEANS):
        ctx.attributes["group"] = group
    set_input_shape(ctx, "x", [draw(integers(1, 2)), channels, *w.spatial])
    set_input_shape(ctx, "w", [maps, channels // group, *w.kernel])
    return int(maps)


def _per_tensor(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))


def _conv_integer_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    maps = _conv_operands(draw, ctx)
    if "x_zero_point" not in ctx.omitted:
        ctx.shapes["x_zero_point"] = _per_tensor(draw)
    if "w_zero_point" not in ctx.omitted:
        ctx.shapes["w_zero_point"] = draw(st.sampled_from([_per_tensor(draw), [maps]]))


def _qlinear_conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    maps = _conv_operands(draw, ctx)
    ctx.shapes["x_scale"] = ctx.shapes["x_zero_point"] = _per_tensor(draw)
    ctx.shapes["w_scale"] = ctx.shapes["w_zero_point"] = draw(st.sampled_from([_per_tensor(draw), [maps]]))
    ctx.shapes["y_scale"] = ctx.shapes["y_zero_point"] = _per_tensor(draw)
    if "B" not in ctx.omitted:
        ctx.shapes["B"] = [maps]


CONV_INTEGER_HINT = OpHint(shapes=_conv_integer_shapes, generic_attributes=False)
QLINEAR_CONV_HINT = OpHint(shapes=_qlinear_conv_shapes, generic_attributes=False,
                           values={name: positive(name, 0.0625, 1.0) for name in ("x_scale", "w_scale", "y_scale")})


# ---- Einsum ------------------------------------------------------------------------------------------------------

def _einsum_equation(draw: DrawFn, ctx: DrawContext) -> None:
    """1-3 operands with terms over a few labels (repeats in a term take a diagonal, upper case sorts first),
    sometimes an ellipsis of a shared rank, label and ellipsis sizes of 1 that broadcast across operands, and an
    explicit (a subset of the labels, in a drawn order) or implicit output; sometimes spaces."""
    count = ctx.scratch.get("arity", {}).get("Inputs", 1)
    explicit = draw(BOOLEANS)
    pool = draw(st.sampled_from(["abcd", "abCD", "ijkA"]))  # upper case sorts first in an implicit output
    sizes = {c: draw(integers(1, 3)) for c in pool}
    ell_rank = draw(integers(0, 2)) if draw(BOOLEANS) else None
    ell_dims = dims(draw, ell_rank or 0, 3)
    terms, shapes, used = [], [], False
    for _ in range(count):
        labels = list(draw(st.permutations(pool)))[:draw(st.sampled_from([0, 1, 2, 2, 3, 3]))]
        if len(labels) > 1 and draw(integers(0, 3)) == 0:
            labels[-1] = labels[0]  # a diagonal
        shape = [sizes[c] for c in labels]
        broadcast = [c for c in set(labels) if labels.count(c) == 1]
        for c in broadcast:  # a size of 1 broadcasts against the other operands (not inside a term)
            if draw(integers(0, 4)) == 0:
                shape[labels.index(c)] = 1
        term = "".join(labels)
        if ell_rank is not None and draw(BOOLEANS):
            at = draw(integers(0, len(labels)))
            term = term[:at] + "..." + term[at:]
            shape = shape[:at] + [1 if draw(integers(0, 3)) == 0 else d for d in ell_dims] + shape[at:]
            used = True
        terms.append(term)
        shapes.append(shape)
    equation = ",".join(terms)
    if explicit:
        present = sorted({c for t in terms for c in t if c != "."})
        out = list(draw(st.permutations(present)))[:draw(integers(0, len(present)))]
        if used and (ell_rank or draw(BOOLEANS)):
            out.insert(draw(integers(0, len(out))), "...")
        equation += "->" + "".join(out)
    if draw(integers(0, 4)) == 0:
        equation = " ".join(equation)
    ctx.attributes["equation"] = equation
    ctx.shapes["Inputs"] = shapes


EINSUM_HINT = OpHint(shapes=_einsum_equation)


# ---- LpNormalization ----------------------------------------------------------------------------------------------

def _lp_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Signed data, or non-negative data in half the draws: p = 1 over signed data is where onnx.reference's
    reading (no absolute value) differs, so non-negative draws keep p checked outside that reading."""
    data = fill_array(draw(SEEDS), ctx.dtype, ctx.shapes["input"])
    return np.abs(data) if draw(BOOLEANS) else data


LP_NORM_HINT = OpHint(values={"input": _lp_input})
