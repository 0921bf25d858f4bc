"""Graph inputs: `inputs.tensor("x", "float", ("N", 3, 224, 224))`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from opset.dtypes import ELEMENT_TYPES
from opset.formula import Sym
from opset.graph.value import Dim, Value

# the element types of opset.dtypes.ELEMENT_TYPES, spelt out so that mypy catches a misspelt one
# (tests/graph/test_build.py holds the two equal)
ElementType = Literal[
    "float", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool", "float16", "double", "uint32",
    "uint64", "complex64", "complex128", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
    "float8e5m2fnuz", "uint4", "int4", "float4e2m1", "float8e8m0", "uint2", "int2", "float6e2m3", "float6e3m2",
]
ELEMENT_NAMES: tuple[str, ...] = get_args(ElementType)


def tensor(name: str, element_type: ElementType, shape: Sequence[int | str | None] | None) -> Value:
    """A tensor input of the model: its name, element type (`float`, `int64` ...) and shape: ints, names of symbolic
    dims (`N`), None for a dim nobody names; None for an unknown rank."""
    if not name:
        raise ValueError("an input needs a name")
    element: str = element_type
    if element not in ELEMENT_TYPES:
        raise ValueError(f"input '{name}': '{element_type}' is not an element type; one of "
                         f"{', '.join(sorted(ELEMENT_TYPES))}")
    dims: tuple[Dim, ...] | None = None
    if shape is not None:
        out: list[Dim] = []
        for k, d in enumerate(shape):
            if isinstance(d, bool) or (not isinstance(d, int | str) and d is not None):
                raise ValueError(f"input '{name}': dim {k} is {d!r}, not an int, a name or None")
            if isinstance(d, int) and d < 0:
                raise ValueError(f"input '{name}': dim {k} is negative ({d})")
            out.append(Sym(d) if isinstance(d, str) else Sym(f"?{name}.{k}") if d is None else d)
        dims = tuple(out)
    return Value(f"tensor({element})", dims, name, name=name)
