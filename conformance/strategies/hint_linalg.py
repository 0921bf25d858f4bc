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
from conformance.strategies.hints import ArrayHint, OpHint, dims, values_in
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array
from opset.cells import allowed_elements


def positive(name: str, low: float = 0.25, high: float = 2.0) -> ArrayHint:
    """Input `name` (a scale) filled with values in [low, high] (quarter steps) in its drawn shape and type."""
    return values_in(name, low, high)

# ---- MatMul, MatMulInteger, QLinearMatMul ------------------------------------------------------------


# ---- LayerNormalization, RMSNormalization, GroupNormalization --------------------------------------------


# ---- QuantizeLinear, DequantizeLinear ------------------------------------------------------------------------


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


# ---- ConvInteger, QLinearConv ----------------------------------------------------------------------------------



def _per_tensor(draw: DrawFn) -> list[int]:
    return list(draw(st.sampled_from([[], [1]])))




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
