"""The frozen data model of the registry: what every consumer (generators, conformance, validator) reads.

The loader (`opset.load`) builds these records from `schemas/<domain>/<Op>.yaml`; every version it
hands out is complete (inherited keys already applied), so consumers never merge versions themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

AttrType = Literal["int", "float", "string", "tensor", "graph", "ints", "floats", "strings", "tensors", "graphs",
                   "sparse_tensor", "type_proto", "type_protos"]
ATTR_TYPES: tuple[str, ...] = ("int", "float", "string", "tensor", "graph", "ints", "floats", "strings",
                               "tensors", "graphs", "sparse_tensor", "type_proto", "type_protos")
StatusState = Literal["active", "deprecated", "experimental", "removed"]


@dataclass(frozen=True, slots=True)
class Location:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class Attribute:
    name: str
    type: str  # one of ATTR_TYPES
    required: bool = False
    default: Any = None  # a plain value (already checked against `type`); None when absent
    default_expr: str | None = None  # a formula giving the default from shapes and other attributes
    allowed: tuple[Any, ...] | None = None  # allowed values (for lists: allowed elements)
    range: tuple[float | None, float | None] | None = None  # inclusive; for lists, per element
    length: str | None = None  # formula for the list length
    doc: str = ""
    location: Location | None = None

    @property
    def has_default(self) -> bool:
        return self.default is not None or self.default_expr is not None


@dataclass(frozen=True, slots=True)
class Param:
    """One input or output."""

    name: str
    type: str  # a type variable (`T`) or a fixed type string (`tensor(int64)`)
    optional: bool = False
    variadic: bool = False
    min_arity: int = 1  # for variadic params
    homogeneous: bool = True  # variadic params: every element has the same type
    shape: tuple[str | int, ...] | None = None  # input shape signature: dim names, ints, "*S" for a tuple
    formula: str | None = None  # output shape formula (evaluates to a list of dims)
    data_dependent: bool = False  # output shape depends on input values (formula may use value(X))
    doc: str = ""
    location: Location | None = None


@dataclass(frozen=True, slots=True)
class TypeConstraint:
    name: str
    types: tuple[str, ...]
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Constraint:
    id: str
    expr: str
    message: str = ""
    location: Location | None = None


@dataclass(frozen=True, slots=True)
class Example:
    name: str
    attributes: dict[str, Any]
    inputs: dict[str, Any]  # name -> ArrayLiteral (see opset.arrays)
    outputs: dict[str, Any]
    doc: str = ""
    location: Location | None = None


@dataclass(frozen=True, slots=True)
class Property:
    """A named algebraic property from the fixed vocabulary in docs/format.md (`commutative`, `range` ...)."""

    name: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Tolerance:
    rtol: float
    atol: float


@dataclass(frozen=True, slots=True)
class MapsTo:
    domain: str
    op: str
    opset: int
    attributes: dict[str, str]  # target attribute -> formula over this op's attributes
    inputs: tuple[str, ...] | None = None  # this op's inputs in the target's order ("" = omitted)
    exact: bool = True  # semantics match: the target's kernel can serve this op
    note: str = ""


@dataclass(frozen=True, slots=True)
class BinaryField:
    """One field of a Tengine `.tmfile` parameter struct, in binary order."""

    name: str
    ctype: str  # one of the ctypes of docs/format.md (int32, float32, offset_vector_int32 ...)
    default: Any = None
    attribute: str | None = None  # the attribute it carries (None: same name)
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Tengine:
    op_id: int
    category: str
    param_struct: str | None  # tm2 struct name, None when the op has no parameters
    layout: tuple[BinaryField, ...]
    seed_defaults: dict[str, Any] = field(default_factory=dict)  # where the seed's default differs


@dataclass(frozen=True, slots=True)
class Status:
    state: StatusState = "active"
    since: int | None = None  # opset version (for deprecation) where the state began
    removed_in: str | None = None  # release that removed the op
    removed_at_opset: int | None = None  # first opset where the op no longer resolves
    replacement: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class OpVersion:
    """One version of an op, complete: inherited keys are already resolved."""

    domain: str
    name: str
    since: int
    changes: str
    summary: str
    doc: str
    category: str
    status: Status
    attributes: dict[str, Attribute]
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]
    type_constraints: dict[str, TypeConstraint]
    lets: dict[str, str]  # name -> formula, evaluated after shapes are bound
    constraints: tuple[Constraint, ...]
    examples: tuple[Example, ...]
    tolerance: dict[str, Tolerance]  # dtype name (float, float16, double ...) -> tolerance
    properties: tuple[Property, ...]  # algebraic properties the property tests check
    maps_to: MapsTo | None
    tengine: Tengine | None
    location: Location
    last: int | None = None  # the last opset this version covers (None: open-ended)

    @property
    def signature(self) -> str:
        return f"{self.domain}@{self.since}::{self.name}"

    def type_variable(self, name: str) -> TypeConstraint | None:
        return self.type_constraints.get(name)


@dataclass(frozen=True, slots=True)
class OpSchema:
    """An operator with all of its versions, oldest first."""

    domain: str
    name: str
    category: str
    summary: str
    versions: tuple[OpVersion, ...]
    status: Status
    file: str
    seed_note: str = ""

    def version(self, since: int) -> OpVersion:
        for v in self.versions:
            if v.since == since:
                return v
        raise KeyError(f"{self.domain}::{self.name} has no version {since}")


@dataclass(frozen=True, slots=True)
class Domain:
    name: str
    description: str
    seed: str | None
    extends: tuple[str, int] | None  # (domain, opset) this domain falls back to
    max_opset: int
    releases: dict[int, str]  # opset -> release that introduced it
    aliases: tuple[str, ...]  # names models use for this domain ("" for ai.onnx)
    file: str
