"""Graph inputs: `inputs.tensor("x", "float", ("N", 3, 224, 224))`."""

from __future__ import annotations

from collections.abc import Sequence

from opset.dtypes import ELEMENT_TYPES
from opset.formula import Sym
from opset.graph.value import Dim, Value


def tensor(name: str, element_type: str, shape: Sequence[int | str | None] | None) -> Value:
    """A tensor input of the model: its name, element type (`float`, `int64` ...; `tensor(float)` also reads) and
    shape: ints, names of symbolic dims (`N`), None for a dim nobody names; None for an unknown rank."""
    if not name:
        raise ValueError("an input needs a name")
    element = element_type[len("tensor("):-1] if element_type.startswith("tensor(") else element_type
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
