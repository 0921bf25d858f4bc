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

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.conversions import conversion_values
from conformance.strategies.hints import OpHint
from opset.cells import NUMPY_ELEMENTS, allowed_elements
from opset.dtypes import ELEMENT_TYPES


def code_of(element: str) -> int:
    """The TensorProto DataType number of an element type."""
    return ELEMENT_TYPES[element][0]


def drawable_targets(ctx: DrawContext, type_var: str) -> list[str]:
    """The element types a type variable allows that the strategies draw."""
    return [e for e in allowed_elements(ctx.version, type_var) if e in NUMPY_ELEMENTS]


def conversion_input(draw: DrawFn, ctx: DrawContext, name: str, target: str) -> np.ndarray:
    """An array for input `name` whose every value converts to `target` by a rule ONNX defines."""
    element = ctx.element_of(next(p.type for p in ctx.version.inputs if p.name == name))
    return conversion_values(draw, element, target, list(ctx.shapes[name]))


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
