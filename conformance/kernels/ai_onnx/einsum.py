"""Einsum (12, 28): the equation parsed here (spaces dropped, terms per input, one ellipsis per term, an implicit
output of the labels that appear once in ASCII order after the ellipsis axes) and handed to numpy.einsum in its
explicit form, so numpy's own implicit rules play no part. Half precision is computed in float32; integers in
their own type."""

from __future__ import annotations

import string

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel

LABELS = frozenset(string.ascii_letters)


def explicit_equation(equation: str, count: int) -> str:
    """The equation in explicit form (`lhs->rhs`), checked for the shape of its syntax."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    if "->" in rhs or set(eq) - LABELS - set(",.->"):
        raise ValueError(f"Einsum: malformed equation {equation!r}")
    terms = lhs.split(",")
    if len(terms) != count:
        raise ValueError(f"Einsum: {len(terms)} terms for {count} inputs in {equation!r}")
    for term in [*terms, rhs]:
        if term.count(".") not in (0, 3) or (term.count(".") == 3 and "..." not in term):
            raise ValueError(f"Einsum: a term of {equation!r} has a malformed ellipsis")
    if not arrow:
        once = sorted(c for c in set(lhs) - {",", "."} if lhs.count(c) == 1)  # ASCII: upper case first
        rhs = ("..." if "..." in lhs else "") + "".join(once)
    return f"{lhs}->{rhs}"


@kernel("ai.onnx", "Einsum", since=12)
def einsum(*inputs: np.ndarray, equation: str) -> tuple[np.ndarray, ...]:
    if not inputs:
        raise ValueError("Einsum: no inputs")
    eq = explicit_equation(equation, len(inputs))
    wt = work_dtype(inputs[0])
    y = np.einsum(eq, *[x.astype(wt, copy=False) for x in inputs])
    return (np.asarray(y).astype(inputs[0].dtype, copy=False),)
