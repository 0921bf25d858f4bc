"""The frozen data model of the registry: what every consumer (generators, conformance, validator) reads.

The loader (`opset.load`) builds these records from `schemas/<domain>/<Op>.yaml`; every version it
hands out is complete (inherited keys already applied), so consumers never merge versions themselves.

Records are values: frozen, hashable, holding tuples, `FrozenMap`s and parsed `Formula`s (which keep
their source text in `.text` for messages). Values read from YAML (defaults, examples) are frozen with
`opset.frozen.freeze`; `thaw` gives the plain lists and dicts back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from opset.formula import Formula
from opset.frozen import EMPTY, FrozenMap, Record

StatusState = Literal["active", "deprecated", "experimental", "removed"]
# What an input is to a model (docs/format.md, "Input roles"): `data` flows through the graph; a `weight` is a learned
# tensor a model carries as an initializer; a `parameter` is a shape-like or index-like value (Reshape's shape, Slice's
# starts, TopK's K) a model normally carries as a constant, so a backend may need it as one to compile the node.
InputRole = Literal["data", "weight", "parameter"]
INPUT_ROLES: tuple[InputRole, ...] = ("data", "weight", "parameter")
# how a domain's tensor values spread (`fill`, `fill_of`; docs/format.md "Domains"); the meta-schema's enum is this list
FILLS = ("small", "full", "ends", "specials", "log")


def op_label(domain: str, name: str, since: int, dtype: str | None = None) -> str:
    """The one way an op version (and a conformance cell of it) is written: `ai.onnx@11::AveragePool[float]`."""
    label = f"{domain}@{since}::{name}"
    return f"{label}[{dtype}]" if dtype is not None else label


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Location(Record):
    """Where a record was written: the registry file (as shown from the working directory) and its line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class GraphParam(Record):
    """One part of a graph attribute's signature: a single input or output of the graph, or a variadic run of them.

    `type` is a type variable of the op (`V`) or a fixed type (`tensor(bool)`). A variadic part has `count`
    values (a formula over the op's inputs and attributes, `len(v_initial)`) or, without one, whatever the
    other parts leave (at least `min_arity`). `shape` gives the shape (a list of shapes for a variadic part)
    and `types` the type (a list for a variadic part, `type_of(v_initial)`) the value must have, where known.
    """

    name: str
    type: str
    variadic: bool = False
    min_arity: int = 1
    count: Formula | None = None
    shape: Formula | None = None
    types: Formula | None = None
    doc: str = ""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class GraphSignature(Record):
    """What a graph attribute is: a typed function with its own inputs and outputs (docs/format.md)."""

    inputs: tuple[GraphParam, ...]
    outputs: tuple[GraphParam, ...]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ValueDomain(Record):
    """What valid values (and, for an input, shapes) of an input, attribute or signature dim look like
    (docs/format.md, "Domains"): the generic case builder draws from it directly, the docs show it.

    Every formula reads what the version's other formulas read (inputs as shapes, dims, attributes, lets, `value(X)`)
    and `i`, the element's position, where a rule applies per element (`range` of a list attribute or a tuple).
    """

    # values: per element (a tensor's, a list attribute's, a tuple's)
    range: tuple[Formula | None, Formula | None] | None = None  # inclusive; None keeps the draw's own bound
    exclude: tuple[Any, ...] = ()  # frozen literals never drawn
    step: Formula | None = None  # tensors: values on the grid of multiples of this
    fill: str | None = None  # one of FILLS: how a tensor's values spread
    fill_of: Formula | None = None  # tensors: the fill this draw, a formula giving one of the names above
    index: Formula | None = None  # values are indices into a dim of this size (a list: one size per last-axis entry)
    negative: bool = True  # index and axes values may be negative (counted from the end)
    axes: Formula | None = None  # distinct axes of a tensor of this rank
    among: Formula | None = None  # axes: the candidates (non-negative); tensors: every value one of this list
    hits: Formula | None = None  # tensors: about half the values picked from this list (look-ups that hit)
    count: tuple[Formula, Formula] | None = None  # how many axes; a list attribute's length (inclusive bounds)
    permutation: Formula | None = None  # a permutation of range(n)
    sum: Formula | None = None  # non-negative ints that add up to this
    one_of: tuple[Formula, ...] = ()  # the value is one of these (the first is the simplest draw)
    each: bool = False  # one_of picks each element on its own (a tensor's, a list's)
    value: Formula | None = None  # the value is exactly this
    multiple_of: Formula | None = None  # dims: a multiple of this
    sorted: bool = False  # ascending along the last axis
    unique: Formula | None = None  # where it holds, no value twice (with a list `index`: no index tuple twice)
    unique_along: Formula | None = None  # with `index`: no index twice along this axis (each line on its own)
    probabilities: bool = False  # non-negative rows (last axis) that add up to 1
    converts_to: Formula | None = None  # inputs: values every conversion to this element type defines
    repeats: Formula | None = None  # values made of a few slices along this axis, repeated (None: few values)
    dtype_of: str | None = None  # attributes: the value names the element type of this type variable
    dtype_where: Formula | None = None  # with dtype_of: only the types `t` for which this holds
    any_type: bool = False  # inputs: the type variable is drawn among all it allows, not held to the cell's type
    types: tuple[str, ...] = ()  # inputs: the type variable is drawn among these (element types, type variables)
    # shape: inputs and tuples
    rank: tuple[Formula, Formula] | None = None  # inclusive bounds (equal for an exact rank)
    shapes: tuple[Formula, ...] = ()  # inputs: the shape is one of these
    broadcast: str | None = None  # inputs: numpy (mutually broadcastable partners) or legacy (opset 1-6's B)
    empty: Formula | None = None  # where it holds, about one draw in four has a dim of size 0
    alike: Formula | None = None  # sequence inputs: the elements share one shape but for this axis (None: all of it)
    # presence: optional inputs and attributes
    when: Formula | None = None  # given only where this holds
    present: Formula | None = None  # given exactly where this holds
    # keys that apply only where the element type (an input's; the cell's for attributes and dims) is an integer
    # (or bool) type, a float type or string: integer division by zero is undefined, a float's is not
    integers: ValueDomain | None = None
    floats: ValueDomain | None = None
    strings: ValueDomain | None = None  # ... or a string type: strings concatenate and compare, never multiply
    # map inputs: what the keys (distinct, as many as `count` says) and the values they pair with look like
    keys: ValueDomain | None = None
    values: ValueDomain | None = None
    location: Location | None = None

    def formulas(self) -> list[tuple[str, Formula]]:
        """Every formula of the domain with the key it belongs to (for checks, dependencies and docs)."""
        found: list[tuple[str, Formula]] = []
        for key in ("step", "index", "axes", "among", "hits", "permutation", "sum", "value", "multiple_of", "repeats",
                    "unique", "unique_along", "empty", "alike", "when", "present", "fill_of", "dtype_where",
                    "converts_to"):
            formula = getattr(self, key)
            if formula is not None:
                found.append((key, formula))
        for key in ("range", "count", "rank"):
            pair = getattr(self, key)
            found.extend((key, f) for f in pair or () if f is not None)
        found.extend(("one_of", f) for f in self.one_of)
        found.extend(("shapes", f) for f in self.shapes)
        for kind, sub in (("integers", self.integers), ("floats", self.floats), ("strings", self.strings),
                          ("keys", self.keys), ("values", self.values)):
            if sub is not None:
                found.extend((f"{kind}: {key}", f) for key, f in sub.formulas())
        return found


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Attribute(Record):
    """One attribute of an op version: its type, default (or the formula giving it), allowed values and range."""

    name: str
    type: str  # a key of opset.attr_types.ATTR_TYPES
    required: bool = False
    default: Any = None  # a frozen value (lists as tuples), checked against `type`; None when absent
    default_expr: Formula | None = None  # gives the default from shapes and other attributes
    allowed: tuple[Any, ...] | None = None  # allowed values (for lists: allowed elements)
    range: tuple[float | None, float | None] | None = None  # inclusive; for lists, per element
    length: Formula | None = None  # the list length
    hint: bool = False  # never changes what the op computes (consumed_inputs): kernels do not receive it
    doc: str = ""
    location: Location | None = None
    signature: GraphSignature | None = None  # a graph attribute's inputs and outputs
    domain: ValueDomain | None = None  # what valid values look like, where range/allowed/length cannot say it

    @property
    def has_default(self) -> bool:
        return self.default is not None or self.default_expr is not None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Param(Record):
    """One input or output."""

    name: str
    type: str  # a type variable (`T`) or a fixed type string (`tensor(int64)`)
    optional: bool = False
    variadic: bool = False
    min_arity: int = 1  # for variadic params
    homogeneous: bool = True  # variadic params: every element has the same type
    shape: tuple[str | int, ...] | None = None  # input shape signature: dim names, ints, "*S" for a tuple
    formula: Formula | None = None  # output shape formula (evaluates to a list of dims)
    data_dependent: bool = False  # output shape depends on input values (formula may use value(X))
    doc: str = ""
    location: Location | None = None
    value: Formula | None = None  # output: its values (a flat list) from its inputs', where they are known
    types: Formula | None = None  # output: its type (a list for a variadic output) where type variables cannot tell
    role: InputRole = "data"  # input: data, weight or parameter (INPUT_ROLES); outputs are always data
    # input: what valid values and shapes look like (docs/format.md, "Domains"); output: where it is asked for
    domain: ValueDomain | None = None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class TypeConstraint(Record):
    """A type variable of an op version (`T`) and the types it may stand for."""

    name: str
    types: tuple[str, ...]
    doc: str = ""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Constraint(Record):
    """A check over the inputs and attributes (`concat_c1`): `expr` must hold; its id reaches error messages."""

    id: str
    expr: Formula
    message: str = ""
    location: Location | None = None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Reading(Record):
    """Another reading of the op where its sources disagree (onnx's text, its shape inference, onnx.reference,
    onnxruntime): where `when` holds, a model or backend following it is ambiguous, not wrong.

    `outputs` maps an output name to that reading's shape formula; empty when the readings differ in
    values only. `followed_by` names who follows it (`onnx.shape_inference`, `onnxruntime` ...). `kernel`: the
    reference kernels compute this reading's values too, so a backend is ambiguous only where it gives them.
    """

    id: str
    when: Formula
    outputs: FrozenMap[str, Formula]
    followed_by: tuple[str, ...]
    note: str
    location: Location | None = None
    kernel: bool = False


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class RandomOutputs(Record):
    """Outputs whose values are drawn at random (docs/format.md, "Random outputs"): their shapes and types are
    determined as usual, their values only as far as `law` determines them (`opset.random_laws.LAWS`).

    `tensors` maps a law argument to the input or output whose values it is (Bernoulli's `p: input`), `scalars`
    to a formula (RandomNormal's `mean: mean`). `seed` names the attribute that fixes the draw: in our reference
    kernels the same seed gives the same values (onnx defines no values across implementations). Where `when` is
    given, the outputs are random only where it holds (Dropout in training); elsewhere they are compared as usual.
    """

    law: str
    outputs: tuple[str, ...]
    tensors: FrozenMap[str, str]
    scalars: FrozenMap[str, Formula]
    seed: str | None = None
    when: Formula | None = None
    location: Location | None = None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Example(Record):
    """A worked example of the YAML: attributes, input arrays and the outputs they give."""

    name: str
    attributes: FrozenMap[str, Any]  # frozen values
    inputs: FrozenMap[str, Any]  # name -> frozen array literal {dtype, shape, data}, a tuple of them if variadic
    outputs: FrozenMap[str, Any]
    doc: str = ""
    location: Location | None = None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Property(Record):
    """A named algebraic property from the fixed vocabulary in docs/format.md (`commutative`, `range` ...)."""

    name: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Tolerance(Record):
    """How far a backend's floats may be from the reference: relative and absolute tolerance."""

    rtol: float
    atol: float


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Precision(Record):
    """What an implementation may compute in (docs/format.md, "Precision"); conform's bounds follow from it.

    `narrow`: for the narrow floats (float16, bfloat16, the float8/6/4 types), `element` lets every intermediate be
    computed in the element type itself (or anything wider), `widened` asks float32 intermediates and one final
    rounding. `stash` names an int attribute holding a TensorProto type code that stage one may be computed in
    (LayerNormalization's `stash_type`), even for a wider element type. `accumulate`: how integer sums may be
    computed, `element` (in the element type, wrapping) and/or `int64` (exact, then one cast to the element type).
    """

    narrow: str = "widened"
    stash: str | None = None
    accumulate: tuple[str, ...] = ("element",)
    note: str = ""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ConstInput(Record):
    """A constant input a mapping gives its target: values from a formula, of one element type."""

    value: Formula
    dtype: str  # float, int64 or int32


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FollowUp(Record):
    """An op applied to a mapping's output where `when` holds (a fused activation): its data input first, then its
    `const_inputs` in order."""

    op: str
    when: Formula | None
    attributes: FrozenMap[str, Formula]
    const_inputs: FrozenMap[str, ConstInput] = EMPTY
    # its inputs: "_" the previous op's output, this op's input names, const_inputs names, "" omitted (None: "_" and
    # the const_inputs in order)
    inputs: tuple[str, ...] | None = None
    name: str | None = None  # the `as` name later follow-ups' inputs use for this one's output


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class MapsTo(Record):
    """How an op of another domain is computed by an op (or ops) of the target domain (`maps_to`)."""

    domain: str
    op: str
    opset: int
    attributes: FrozenMap[str, Formula]  # target attribute -> formula over this op's attributes
    inputs: tuple[str, ...] | None = None  # this op's inputs or const_inputs names, in the target's order ("": none)
    exact: bool = True  # semantics match: the target's kernel can serve this op
    note: str = ""
    when: Formula | None = None  # where the mapping computes the op (None: everywhere); the converter's choice
    const_inputs: FrozenMap[str, ConstInput] = EMPTY
    then: tuple[FollowUp, ...] = ()
    alternatives: tuple[MapsTo, ...] = ()  # tried in order where `when` does not hold
    reshape_inputs: FrozenMap[str, Formula] = EMPTY  # input -> the shape the target takes it in (same elements)
    unmapped: str = ""  # why nothing applies where neither `when` nor an alternative's holds
    per_output: bool = False  # the target applied once per output of the op, each from the same inputs
    cast_inputs: FrozenMap[str, str] = EMPTY  # input -> the element type the target takes it in (float, int64, int32)
    cast_outputs: FrozenMap[str, str] = EMPTY  # output -> the element type the op gives it (a Cast after the target)
    inverse: FrozenMap[str, Formula] = EMPTY  # ONNX -> tmfile: attributes the mapping leaves open, from this op's names
    fold: bool = False  # the output depends on input shapes only: the reference kernel computes it into a constant


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class BinaryField(Record):
    """One field of a Tengine `.tmfile` parameter struct, in binary order."""

    name: str
    ctype: str  # one of the ctypes of docs/format.md (int32, float32, offset_vector_int32 ...)
    default: Any = None  # frozen
    attribute: str | None = None  # the attribute it carries (None: same name)
    doc: str = ""
    flag: bool = False  # Tengine only tests it for nonzero: another value than 0 or 1 is read as 1, with a warning


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class OlderLayout(Record):
    """A parameter struct an older Tengine writer stored for the op, recognised by its size in the file."""

    size: int  # sizeof the older struct: a block of exactly this size before its operator is read with `fields`
    fields: tuple[BinaryField, ...]
    # attribute -> formula over the older fields (an attribute not listed takes the field of its name, if any)
    attributes: FrozenMap[str, Formula] = EMPTY
    doc: str = ""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Tengine(Record):
    """A Tengine op's id, category and the binary layout of its parameters in a `.tmfile`."""

    op_id: int
    category: str
    param_struct: str | None  # tm2 struct name, None when the op has no parameters
    layout: tuple[BinaryField, ...]
    seed_defaults: FrozenMap[str, Any] = EMPTY  # where the seed's default differs (frozen values)
    older_layouts: tuple[OlderLayout, ...] = ()  # structs of older writers, each recognised by its size
    # in a graph of NHWC layout: parameter -> permutation between the tensor as stored and the op's NCHW definition
    # (an input as stored, transposed by it, is what the op takes; the op's output transposed by it is what is stored)
    nhwc: FrozenMap[str, tuple[int, ...]] = EMPTY
    # an int32 bias input stored without quantisation parameters -> (data input, weight input) whose scales it takes
    bias_scale: FrozenMap[str, tuple[str, ...]] = EMPTY


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Status(Record):
    """Whether an op is active, deprecated, experimental or removed, since when, and what replaces it."""

    state: StatusState = "active"
    since: int | None = None  # opset version (for deprecation) where the state began
    removed_in: str | None = None  # release that removed the op
    removed_at_opset: int | None = None  # first opset where the op no longer resolves
    replacement: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class OpVersion(Record):
    """One version of an op, complete: inherited keys are already resolved."""

    domain: str
    name: str
    since: int
    changes: str
    summary: str
    doc: str
    category: str
    status: Status
    attributes: FrozenMap[str, Attribute]
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]
    type_constraints: FrozenMap[str, TypeConstraint]
    lets: FrozenMap[str, Formula]  # evaluated after shapes are bound
    constraints: tuple[Constraint, ...]
    examples: tuple[Example, ...]
    tolerance: FrozenMap[str, Tolerance]  # dtype name (float, float16, double ...) -> tolerance
    properties: tuple[Property, ...]  # algebraic properties the property tests check
    maps_to: MapsTo | None
    tengine: Tengine | None
    location: Location
    last: int | None = None  # the last opset this version covers (None: open-ended)
    readings: tuple[Reading, ...] = ()  # where the sources disagree, the readings we do not take
    # type variable -> how it follows another (`element(S)`, `seq(T)`, `optional(V)`, `unwrap(O)`; opset.dtypes)
    type_relations: FrozenMap[str, str] = EMPTY
    random: RandomOutputs | None = None  # outputs whose values are drawn at random, and what determines them
    unmapped: str = ""  # why no op of another domain computes this one (no maps_to): the converter says it
    dims: FrozenMap[str, ValueDomain] = EMPTY  # signature dims and tuples (and helper draws): their domains
    precision: Precision | None = None  # what an implementation may compute in; None: the defaults of `Precision`

    @property
    def signature(self) -> str:
        """`ai.onnx@11::AveragePool` (see `op_label`)."""
        return op_label(self.domain, self.name, self.since)

    def type_variable(self, name: str) -> TypeConstraint | None:
        return self.type_constraints.get(name)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class OpSchema(Record):
    """An operator with all of its versions, oldest first."""

    domain: str
    name: str
    category: str
    summary: str
    versions: tuple[OpVersion, ...]
    status: Status
    file: str
    seed_note: str = ""
    no_reference_kernel: str = ""  # why the op has no reference kernel (the op file's `no_reference_kernel`)
    drawn_by_hint: str = ""  # why its cases come from a Python hint, not its domains (the op file's `drawn_by_hint`)

    def version(self, since: int) -> OpVersion:
        for v in self.versions:
            if v.since == since:
                return v
        raise KeyError(f"{self.domain}::{self.name} has no version {since}")

    @property
    def label(self) -> str:
        """`ai.onnx::AveragePool`: the op without a version."""
        return f"{self.domain}::{self.name}"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Domain(Record):
    """A family of ops, and the one place that says how its name is written everywhere.

    `name` is the label (messages, reports, docs) and the schemas folder; `node_domain` is what a
    NodeProto and an opset import carry ("" for ai.onnx); `aliases` are other node spellings a
    model may use; `module` is the Python identifier of its packages (`opset.ops.com_microsoft`,
    `conformance.kernels.com_microsoft`).
    """

    name: str
    description: str
    seed: str | None
    extends: tuple[str, int] | None  # (domain, opset) this domain falls back to
    max_opset: int
    releases: FrozenMap[int, str]  # opset -> release that introduced it
    node_domain: str
    aliases: tuple[str, ...]
    file: str

    @property
    def module(self) -> str:
        return module_name(self.name)

    def spelled_by(self, node_domain: str) -> bool:
        """Does a node or opset import with this domain string belong to this domain?"""
        return node_domain in (self.name, self.node_domain, *self.aliases)


def module_name(domain: str) -> str:
    """`ai.onnx.modified` -> `ai_onnx_modified`: a registry domain name as a Python identifier."""
    return domain.replace(".", "_").replace("-", "_")
