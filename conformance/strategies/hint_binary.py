"""Hints for the elementwise binary, comparison, logical and variadic ops (Div, Pow, Mod, Where, Max ...).

- numpy broadcasting (opset 7 on): the inputs' shapes are built from one output shape (each a suffix of it
  with some dims set to 1), so every draw broadcasts and the interesting pairings (scalar, row, column,
  equal shapes) all occur, where independent shapes would mostly be rejected;
- the legacy rule of opsets 1-6: `broadcast` and `axis` are drawn together with B's shape (equal shapes,
  a 1-element B, B matching A's trailing dims, or B matching A's dims from `axis` on);
- values the ops leave undefined are kept out: an integer divisor of 0 (Div, Mod), an integer power with no
  integer value (Pow), and the type variable a mixed-type op's cell does not fix (Pow's T1, Where's T) is
  drawn rather than pinned to the cell's type.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.element_types import is_float_dtype
from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.dtypes import FLOAT_ELEMENTS, numpy_dtype
from conformance.strategies.hints import OpHint, ShapeHint, ValueHint, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import NUMPY_ELEMENTS, allowed_elements

MAX_RANK = 4


def _omit(draw: DrawFn, ctx: DrawContext) -> object:
    return OMIT


# ---- shapes ---------------------------------------------------------------------------------------

def _partner(draw: DrawFn, out: list[int]) -> list[int]:
    """A shape that broadcasts to `out`: a suffix of it (all of it half the time) with some dims set to 1."""
    size = len(out) if draw(BOOLEANS) else draw(integers(0, len(out)))
    return [1 if d > 1 and draw(integers(0, 3)) == 0 else d for d in out[len(out) - size:]]


def broadcast_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """Every input (each value of a variadic one) a partner of one drawn output shape; a variadic input takes
    3 values in the simplest draw (Hypothesis draws first choices most often), else 2, 1 or 4."""
    out = dims(draw, draw(integers(0, MAX_RANK)), ctx.max_side)
    for param in ctx.version.inputs:
        if param.variadic:
            count = draw(st.sampled_from([n for n in (3, 2, 1, 4) if n >= param.min_arity]))
            ctx.shapes[param.name] = [_partner(draw, out) for _ in range(count)]
        else:
            set_input_shape(ctx, param.name, _partner(draw, out))


def legacy_broadcast_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """A's shape, then B's with `broadcast` and `axis` (opsets 1-6): one of the four forms the rule allows
    (equal shapes, a 1-element B, B matching A's trailing dims, B matching a run of A's dims that `axis` places
    and that does not reach the last dim, so a backend that ignores `axis` fails)."""
    first, second = ctx.version.inputs[0].name, ctx.version.inputs[1].name
    form = draw(st.sampled_from(("axis", "suffix", "one", "same")))  # the most telling form is the simplest draw
    rank = draw(integers(2 if form == "axis" else 0, MAX_RANK))
    a = dims(draw, rank, ctx.max_side)
    if form == "same":
        b = list(a)
        if draw(BOOLEANS):
            ctx.attributes["broadcast"] = draw(st.sampled_from((0, 1)))
    else:
        ctx.attributes["broadcast"] = 1
        if form == "one":
            b = [1] * draw(integers(0, rank))
        elif form == "suffix":
            b = a[draw(integers(0, rank)):]
        else:
            start = draw(integers(0, rank - 2))  # a run that stops short of the last dim: only axis places it
            b = a[start:draw(integers(start + 1, rank - 1))]
            ctx.attributes["axis"] = start - rank if draw(BOOLEANS) else start
    set_input_shape(ctx, first, a)
    set_input_shape(ctx, second, b)


def with_type_drawn(shapes: ShapeHint, variable: str, first: tuple[str, ...] = ()) -> ShapeHint:
    """`shapes`, then `variable` bound to any element type numpy holds (the cell names another parameter's);
    the types in `first` lead the choices, as Hypothesis draws the first choices most often."""

    def hint(draw: DrawFn, ctx: DrawContext) -> None:
        shapes(draw, ctx)
        allowed = [e for e in allowed_elements(ctx.version, variable) if e in NUMPY_ELEMENTS]
        choices = [e for e in first if e in allowed] + [e for e in allowed if e not in first]
        ctx.type_bindings[variable] = draw(st.sampled_from(choices))

    return hint


LEGACY_ATTRIBUTES: dict[str, ValueHint] = {"axis": _omit, "broadcast": _omit}  # unless the shapes set them


# ---- values ---------------------------------------------------------------------------------------

def nonzero_divisor(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """The second input (a divisor): an integer one has no 0 (integer division by zero is undefined)."""
    param = ctx.version.inputs[1]
    element, shape = ctx.element_of(param.type), ctx.shapes[param.name]
    b = fill_array(draw(SEEDS), element, shape)
    if b.dtype.kind in "iu":
        b = np.where(b == 0, fill_array(draw(SEEDS), element, shape, min_value=1), b)
    return b


def _meets(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """For each element of an array of `shape`: whether `mask` holds at some element broadcast against it."""
    out = np.broadcast_shapes(mask.shape, shape)
    lead = len(out) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and out[lead + i] != 1)
    return np.broadcast_to(mask, out).any(axis=axes).reshape(shape)


def pow_base(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """X for Pow-12 on: an integer base is drawn from [-6, 6], or from [0, 6] in half the draws, where every
    fractional exponent keeps its fraction (so truncating the power toward zero is tested)."""
    element = ctx.element_of(ctx.version.inputs[0].type)
    if numpy_dtype(element).kind == "f":
        return fill_array(draw(SEEDS), element, ctx.shapes["X"])
    low = 0 if draw(BOOLEANS) else -6
    return fill_array(draw(SEEDS), element, ctx.shapes["X"], min_value=low, max_value=6)


def pow_exponent(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Y for Pow-12 on (T1 drawn by the shapes hint): with an integer X every power has an integer value
    (no fractional exponent of a negative base, no negative exponent of 0); with a float X half the draws
    keep the NaN and infinite cases."""
    element = ctx.element_of("T1")
    y = fill_array(draw(SEEDS), element, ctx.shapes["Y"])
    x = ctx.arrays.get("X")
    if not isinstance(x, np.ndarray):
        raise ValueError(f"{ctx.version.signature}: X must be drawn before Y")
    if x.dtype.kind == "f" and draw(BOOLEANS):
        return y
    if is_float_dtype(y.dtype):  # bfloat16 and the float8 types too
        y = np.where(_meets(x < 0, y.shape), np.trunc(y.astype(np.float32)), y.astype(np.float32)).astype(y.dtype)
    if y.dtype.kind != "u":
        y = np.where(_meets(x == 0, y.shape) & (y < 0), -y, y)
    return np.asarray(y, dtype=y.dtype)


def full_range(index: int) -> ValueHint:
    """Input number `index` with values over the whole range of its integer type (capped to int64), so that
    high bits and the sign bit take part."""

    def hint(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
        param = ctx.version.inputs[index]
        element = ctx.element_of(param.type)
        info = np.iinfo(numpy_dtype(element))
        return fill_array(draw(SEEDS), element, ctx.shapes[param.name], min_value=float(max(info.min, -2**63)),
                          max_value=float(min(info.max, 2**63 - 1024)))

    return hint


def shift_amounts(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """BitShift's Y: amounts from just below 0 (signed T) to just past T's width, so the out-of-range rule is drawn."""
    element = ctx.element_of(ctx.version.inputs[1].type)
    dtype = numpy_dtype(element)
    low = -2 if dtype.kind == "i" else 0
    return fill_array(draw(SEEDS), element, ctx.shapes["Y"], min_value=low, max_value=8 * dtype.itemsize + 1)


def float_needs_fmod(draw: DrawFn, ctx: DrawContext) -> object:
    """Mod 10/13: a float T requires fmod=1; integers take either (or the default)."""
    if ctx.dtype in FLOAT_ELEMENTS:
        return 1
    return draw(st.sampled_from((OMIT, 0, 1)))


# ---- per op -----------------------------------------------------------------------------------------

def binary_hints(*, legacy_until: int | None = None, values: dict[str, ValueHint] | None = None,
                 attributes: dict[str, ValueHint] | None = None) -> tuple[OpHint, ...]:
    """The legacy-broadcast hint up to `legacy_until` (if the op has such versions), numpy broadcasting after."""
    values, attributes = values or {}, attributes or {}
    modern = OpHint(shapes=broadcast_shapes, values=values, attributes=attributes,
                    since=1 if legacy_until is None else legacy_until + 1)
    if legacy_until is None:
        return (modern,)
    legacy = OpHint(shapes=legacy_broadcast_shapes, values=values, attributes={**LEGACY_ATTRIBUTES, **attributes},
                    until=legacy_until)
    return (legacy, modern)


BITWISE_HINTS = binary_hints(values={"A": full_range(0), "B": full_range(1)})
BITSHIFT_HINTS = binary_hints(values={"X": full_range(0), "Y": shift_amounts})
DIV_HINTS = binary_hints(legacy_until=6, values={"B": nonzero_divisor})
MOD_HINTS = (OpHint(shapes=broadcast_shapes, values={"B": nonzero_divisor}, attributes={"fmod": float_needs_fmod},
                    until=13),
             OpHint(shapes=broadcast_shapes, values={"B": nonzero_divisor}, since=28))
POW_HINTS = (OpHint(shapes=legacy_broadcast_shapes, attributes=LEGACY_ATTRIBUTES, until=6),
             OpHint(shapes=broadcast_shapes, since=7, until=11),
             OpHint(shapes=with_type_drawn(broadcast_shapes, "T1", first=("float", "int64")),
                    values={"X": pow_base, "Y": pow_exponent}, since=12))
VARIADIC_HINTS = (OpHint(shapes=broadcast_shapes, since=8),)  # before 8 the inputs share one shape
WHERE_HINTS = (OpHint(shapes=with_type_drawn(broadcast_shapes, "T", first=("float", "int64"))),)
