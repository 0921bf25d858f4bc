"""Values of a model under construction: what flows between the typed op functions of `opset.ops`.

A `Value` is a graph input (`inputs.tensor`), a constant (`constant`, or a numpy array given where an op takes
a value) or an output of a node; it carries the element type and the (symbolic) shape the registry's formulas
inferred when the node was written. Names are given only when `build` writes the model.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from opset.formula import Sym

Dim = int | Sym
Array = npt.NDArray[Any]

_SERIAL = itertools.count()


class Value:
    """One value of a model under construction: its type text (`tensor(float)`), its shape (dims int or `Sym`,
    None where the rank is not known) and where it comes from (a graph input, a constant, or a node's output)."""

    __slots__ = ("array", "dims", "index", "known", "label", "name", "producer", "serial", "type")

    def __init__(self, type_: str | None, dims: tuple[Dim, ...] | None, label: str, *, name: str | None = None,
                 producer: Node | None = None, index: int = 0, array: Array | None = None,
                 known: tuple[int, ...] | None = None) -> None:
        self.type = type_
        self.dims = dims
        self.label = label  # how messages name it before the model gives it a name
        self.name = name  # a graph input's or a constant's own name
        self.producer = producer
        self.index = index  # which output of `producer`
        self.array = array  # a constant's data
        self.known = known  # the values of a small int value, where the formulas know them (shapes, axes)
        self.serial = next(_SERIAL)

    @property
    def element_type(self) -> str | None:
        """`float` for `tensor(float)`; None for a container or an unknown type."""
        t = self.type
        return t[len("tensor("):-1] if t is not None and t.startswith("tensor(") else None

    @property
    def shape(self) -> tuple[int | str | None, ...] | None:
        """Dims as ints, symbolic names or expressions (`N`, `2*N`), None for a dim nobody knows."""
        if self.dims is None:
            return None
        return tuple(d if isinstance(d, int) else None if str(d).startswith("?") else str(d) for d in self.dims)

    @property
    def is_input(self) -> bool:
        return self.producer is None and self.array is None

    def __repr__(self) -> str:
        shape = "?" if self.shape is None else "[" + ", ".join("?" if d is None else str(d) for d in self.shape) + "]"
        return f"Value({self.label!r}: {self.type or '?'} {shape})"


V = TypeVar("V", Value, Array)  # the mode of a call: graph values in, a value out; arrays in, arrays out (eager)


@dataclass(frozen=True, eq=False)
class Node:
    """One node written by an op function: the op version, its inputs (None: an omitted optional input), the
    attributes the caller gave (nothing else is written) and its outputs."""

    domain: str  # the registry domain
    op_type: str
    since: int
    inputs: tuple[Value | None, ...]
    attributes: Mapping[str, Any]
    outputs: list[Value] = field(default_factory=list)
    serial: int = field(default_factory=lambda: next(_SERIAL))


def element_of(array: Array) -> str:
    """The registry element type of a numpy array (`float32` -> `float`); raises for a dtype ONNX lacks."""
    from opset.dtypes import element_of_numpy

    element = element_of_numpy(np.dtype(array.dtype).name)
    if element is None:
        raise TypeError(f"numpy dtype {array.dtype} has no ONNX element type")
    return element
