"""One drawn test case of an op version: what the node carries, what the kernel receives, what to expect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.containers import describe
from opset.model import OpVersion


@dataclass(frozen=True, repr=False)
class Case:
    """A valid call of `version`.

    `attributes` is complete (every attribute of the version, defaults applied, None when absent); it is
    what the reference kernel receives. `node_attributes` is the subset a node states explicitly.
    `inputs` is positional with a variadic input expanded; None marks an omitted optional input (its name is
    "") or an empty optional (named). A container input is a runtime value (conformance.containers).
    """

    version: OpVersion
    dtype: str  # the cell: the type of the first typed input (or output), as opset.cells names it
    type_bindings: dict[str, str]  # type variable -> cell name (`float`, `seq(tensor(float))`)
    attributes: dict[str, Any]
    node_attributes: dict[str, Any]
    inputs: list[Any]
    input_names: list[str]  # "" for an omitted optional input
    output_names: list[str]
    # from the shape formulas (a sequence's: its element shapes); None when the formula is unknown
    expected_shapes: list[Any]
    values: dict[str, list[Any]] = field(default_factory=dict)  # input name -> flat values, for value(X)
    example: str | None = None  # the YAML example it comes from, if any
    # values of the enclosing graph the node's graph attributes read (graph inputs of the one-node model)
    outer: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.version.signature}[{self.dtype}]"

    def describe(self) -> str:
        """A short, one-line account of the case for assertion messages."""
        shapes = ", ".join("-" if not n else f"{n}:{describe(x)}"
                           for n, x in zip(self.input_names, self.inputs, strict=True))
        given = ", ".join(f"{k}={_shown(v)}" for k, v in sorted(self.node_attributes.items()))
        outer = ", ".join(f"{n}:{x.dtype}{list(x.shape)}" for n, x in sorted(self.outer.items()))
        return f"inputs ({shapes}) attributes {{{given}}}" + (f" outer ({outer})" if outer else "")

    def __repr__(self) -> str:
        return f"Case({self.label}: {self.describe()})"

    def input_types(self) -> list[str | None]:
        """The type text of each input position, where the bindings say it (empty sequences and optionals cannot
        show theirs)."""
        from opset.cells import cell_type

        params = self.version.inputs
        types: list[str | None] = []
        for i in range(len(self.inputs)):
            param = params[i] if i < len(params) else params[-1] if params and params[-1].variadic else None
            bound = self.type_bindings.get(param.type) if param is not None else None
            fixed = param.type if param is not None and self.version.type_variable(param.type) is None else None
            types.append(cell_type(bound) if bound is not None else fixed)
        return types

    def with_inputs(self, inputs: list[Any]) -> Case:
        return Case(self.version, self.dtype, self.type_bindings, self.attributes, self.node_attributes,
                    inputs, self.input_names, self.output_names, self.expected_shapes, self.values, self.example,
                    self.outer)


def _shown(value: Any) -> str:
    """An attribute value in one line: a graph as its nodes' ops (`graph body(Add, Identity)`)."""
    nodes = getattr(value, "node", None)
    if nodes is not None and hasattr(value, "output"):
        return f"graph {value.name}({', '.join(n.op_type for n in nodes)})"
    return repr(value)
