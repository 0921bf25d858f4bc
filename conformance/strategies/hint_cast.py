"""Hints for ai.onnx ops whose output element type an attribute or a second input chooses: Cast and CastLike.

The generic builder binds every type variable to the cell's type where it can, so a conversion would only ever be
drawn to its own type; these hints draw the target among the element types numpy holds (every one of them, so each
cell meets every target) and keep the case's type bindings in step. Input values are drawn so that each conversion
rule shows: quarter steps for truncation toward zero, the whole range of an integer type for wrap-around, and no
value whose conversion ONNX leaves undefined (a float outside the target integer's range).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import COMPUTE_AS, FLOATS, finite_range, integer_range, numpy_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint
from conformance.strategies.memo import BOOLEANS
from conformance.strategies.strings import numeric_literals
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import NUMPY_ELEMENTS, allowed_elements
from opset.dtypes import ELEMENT_TYPES


def code_of(element: str) -> int:
    """The TensorProto DataType number of an element type."""
    return ELEMENT_TYPES[element][0]


def drawable_targets(ctx: DrawContext, type_var: str) -> list[str]:
    """The element types a type variable allows that the strategies draw."""
    return [e for e in allowed_elements(ctx.version, type_var) if e in NUMPY_ELEMENTS]


def whole_range(seed: int, element: str, shape: list[int]) -> np.ndarray:
    """Values spread over the whole range of an integer (or bool) element type."""
    dtype = numpy_dtype(element)
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return np.asarray(rng.integers(0, 2, size=shape).astype(bool))
    low, high = integer_range(element)
    wide = COMPUTE_AS.get(element, dtype)
    return np.asarray(rng.integers(low, high, size=shape, dtype=wide, endpoint=True).astype(dtype))


def conversion_input(draw: DrawFn, ctx: DrawContext, name: str, target: str) -> np.ndarray:
    """An array for input `name` whose every value converts to `target` by a rule ONNX defines."""
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
    shape = list(ctx.shapes[name])
    seed = draw(SEEDS)
    if element == "string" or target == "string":
        return string_conversion_input(draw, seed, element, target, shape)
    if element not in FLOATS:
        # integers (and bool): wrap-around, infinity in float16 and nonzero-is-true only show over the whole range
        return whole_range(seed, element, shape) if draw(BOOLEANS) else fill_array(seed, element, shape)
    if target == "float8e8m0":  # zero and negative values convert to unspecified values
        return fill_array(seed, element, shape, min_value=0.25)
    if target in FLOATS or target == "bool":
        return fill_array(seed, element, shape)
    low, high = finite_range(target)  # a float beyond the integer target's range converts to an undefined value
    return fill_array(seed, element, shape, min_value=max(low, -4.0), max_value=min(high, 4.0))


def string_conversion_input(draw: DrawFn, seed: int, element: str, target: str, shape: list[int]) -> np.ndarray:
    """Strings that read as `target` numbers (string to number), or numbers whose text shows the format: integral
    values, many digits, magnitudes that switch to an exponent, infinities and NaN (number to string)."""
    if element == "string":
        if target == "string":
            return fill_array(seed, element, shape)
        if target in FLOATS:
            # the narrow floats: no NaN or infinity (float4 and float6 hold none), float8e8m0 positive only
            wide = target in ("float16", "float", "double")
            return numeric_literals(seed, shape, target, specials=wide, positive=target == "float8e8m0")
        low, high = integer_range(target)
        return numeric_literals(seed, shape, target, max(low, -300), min(high, 300))
    if element not in ("float16", "float", "double"):
        if element in FLOATS:
            return fill_array(seed, element, shape)
        return fill_array(seed, element, shape) if draw(BOOLEANS) else whole_range(seed, element, shape)
    if draw(BOOLEANS):
        return fill_array(seed, element, shape)
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape)) if shape else 1
    values = rng.standard_normal(size) * 10.0 ** rng.integers(-7, 11, size=size)
    special = rng.integers(0, 12, size=size)
    values = np.where(special == 0, np.round(values), values)  # integral: no decimal point in the text
    values = np.where(special == 1, np.array([np.inf, -np.inf, np.nan, -0.0])[rng.integers(0, 4, size=size)], values)
    with np.errstate(over="ignore"):
        return np.asarray(values.reshape(shape).astype(numpy_dtype(element)))


# ---- Cast, CastLike -------------------------------------------------------------------------------------------

def _cast_to(draw: DrawFn, ctx: DrawContext) -> object:
    output_type = ctx.version.outputs[0].type
    target = draw(st.sampled_from(drawable_targets(ctx, output_type)))
    ctx.type_bindings[output_type] = target
    if ctx.version.attributes["to"].type == "string":
        return target.upper()  # opset 1 names the DataType
    return code_of(target)


def _cast_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return conversion_input(draw, ctx, "input", ctx.type_bindings[ctx.version.outputs[0].type])


CAST_HINT = OpHint(attributes={"to": _cast_to}, values={"input": _cast_input})


def _cast_like_target(draw: DrawFn, ctx: DrawContext) -> None:
    ctx.type_bindings["T2"] = draw(st.sampled_from(drawable_targets(ctx, "T2")))


def _cast_like_input(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    return conversion_input(draw, ctx, "input", ctx.type_bindings["T2"])


CAST_LIKE_HINT = OpHint(shapes=_cast_like_target, values={"input": _cast_like_input})
