"""The state of one draw, shared by the generic builder and the per-op hints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from opset.model import OpVersion


@dataclass
class DrawContext:
    version: OpVersion
    dtype: str
    type_bindings: dict[str, str]
    max_side: int
    dims: dict[str, Any] = field(default_factory=dict)  # signature dim -> int, tuple -> list[int]
    shapes: dict[str, Any] = field(default_factory=dict)  # input -> shape, None (omitted) or list of shapes
    attributes: dict[str, Any] = field(default_factory=dict)  # attributes set on the node
    arrays: dict[str, np.ndarray | list[np.ndarray] | None] = field(default_factory=dict)
    omitted: set[str] = field(default_factory=set)  # optional inputs left off the node
    empty: set[str] = field(default_factory=set)  # inputs given an empty optional (named on the node, None)
    fixed: set[str] = field(default_factory=set)  # inputs whose shape a hint chose (not rebuilt from dims)
    scratch: dict[str, Any] = field(default_factory=dict)  # what a hint decides early and uses later
    outer: dict[str, np.ndarray] = field(default_factory=dict)  # enclosing-graph values the graph attributes read

    def first_shape(self) -> list[int]:
        """The shape of the first present input ([] when there is none)."""
        for param in self.version.inputs:
            shape = self.shapes.get(param.name)
            if shape and isinstance(shape[0], list):
                return list(shape[0])
            if shape is not None:
                return list(shape)
        return []

    def type_of(self, type_text: str) -> str:
        """The type a parameter type stands for in this draw (`tensor(float)`, `seq(tensor(int64))`)."""
        from opset.cells import cell_type

        bound = self.type_bindings.get(type_text)
        return cell_type(bound) if bound is not None else type_text

    def element_of(self, type_text: str) -> str:
        """The element type a parameter type stands for in this draw."""
        if type_text in self.type_bindings:
            return self.type_bindings[type_text]
        from opset.dtypes import tensor_element

        element = tensor_element(type_text)
        if element is None:
            raise ValueError(f"{self.version.signature}: parameter type {type_text} is not a tensor type")
        return element
