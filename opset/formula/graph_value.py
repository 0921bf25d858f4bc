"""What a formula sees of a graph attribute (If's branches, Loop's and Scan's bodies): its inputs' and outputs'
types and shapes, as a model declares them or the validator inferred them.

A graph attribute's name in a formula is bound to a `GraphValue`; nothing reads it but the accessors
`graph_shapes(g)` (the output shapes) and `graph_types(g)` (the output types), see docs/format.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# the env key under which `type_of(X)` finds the inputs' types (input name -> type string, a list of them for a
# variadic input); a NUL character keeps it apart from every formula name
TYPES_KEY = "\0types"


@dataclass(frozen=True, slots=True)
class Port:
    """One input or output of a graph: its type string (`tensor(float)`) and shape (dims int or `Sym`);
    None where it is not known."""

    name: str
    type: str | None
    shape: tuple[Any, ...] | None


@dataclass(frozen=True, slots=True)
class GraphValue:
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]

    def __str__(self) -> str:
        return f"graph({len(self.inputs)} inputs, {len(self.outputs)} outputs)"
