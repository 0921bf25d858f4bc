"""Shape inference, attribute defaults and constraint checks of one op version, through its formulas.

One engine for every consumer: the property tests (concrete shapes), the generated op classes and
the model validator (symbolic dims). Nothing here knows any particular op.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from opset.attr_types import value_fits
from opset.dtypes import proto_type_text
from opset.formula import Formula, FormulaError, Sym, Undecided
from opset.formula.graph_value import TYPES_KEY, GraphValue, Port
from opset.frozen import thaw
from opset.model import Attribute, Constraint, GraphParam, OpVersion, Param, Reading

Dim = int | Sym
Shape = list[Dim]


class _UnknownShape:
    """Marks a present input whose shape (even its rank) is not known; None marks an absent input."""

    def __repr__(self) -> str:
        return "UNKNOWN_SHAPE"


UNKNOWN_SHAPE: Any = _UnknownShape()


@dataclass(frozen=True, slots=True)
class ShapeProblem:
    """One problem of a node's attributes, shapes or constraints.

    `check` is a registry constraint id (`averagepool_c1`) or a key of `opset.check_ids.INFERENCE_CHECKS`.
    `attribute` names the attribute at fault (attr_* checks); `unevaluated` marks a formula or
    constraint that could not be evaluated or gave no usable value, which usually follows from
    another problem (a too-short kernel_shape, an input of the wrong rank).
    """

    check: str
    message: str
    attribute: str | None = None
    unevaluated: bool = False
    port: tuple[str, int] | None = None  # graph_signature: ("input" or "output", index) of the graph attribute


@dataclass(frozen=True, slots=True)
class ReadingShapes:
    """A reading of the version that applies to this node, with its output shapes (None: as ours)."""

    reading: Reading
    outputs: tuple[Shape | None, ...]


@dataclass
class InferResult:
    outputs: list[Shape | None]  # None: unknown (data-dependent without values, or undecidable)
    attributes: dict[str, Any]
    problems: list[ShapeProblem] = field(default_factory=list)
    readings: list[ReadingShapes] = field(default_factory=list)  # the other readings whose `when` holds
    values: list[list[Any] | None] = field(default_factory=list)  # per output: its values by its `value` formula
    types: list[str | None] = field(default_factory=list)  # per node output: its type by its `types` formula


class _Env(Mapping[str, Any]):
    """Names of a version's formulas: inputs and dims bound eagerly, `let`s and `default_expr`s on demand.

    Names in `unknown` (inputs of unknown shape and their signature dims) exist but have no value:
    using one makes the formula undecided rather than wrong.
    """

    def __init__(self, base: dict[str, Any], lazy: dict[str, Formula], graphs: dict[str, Any] | None = None) -> None:
        self._base = base
        self.bound = base  # what is bound now, each name's value as __getitem__ gives it (`Evaluator.bound`)
        self._lazy = lazy
        self._graphs = graphs or {}  # graph attributes as given (a GraphProto ...), read into a GraphValue on use
        self._busy: set[str] = set()
        self.unknown: set[str] = set(base.pop(_UNKNOWN_KEY, ()))

    def given_graph(self, name: str) -> Any:
        """A graph attribute as the caller gave it (kernels get it so, formulas see its GraphValue)."""
        return self._graphs.get(name)

    def __getitem__(self, name: str) -> Any:
        if name in self._base:
            return self._base[name]
        if name in self._graphs:
            value = self._base[name] = graph_value(self._graphs[name])
            return value
        if name in self.unknown:
            raise Undecided(f"'{name}' is not known")
        if name not in self._lazy:
            raise KeyError(name)
        if name in self._busy:
            raise FormulaError(f"'{name}' is defined in terms of itself")
        self._busy.add(name)
        try:
            value = self._lazy[name].evaluate(self)
        finally:
            self._busy.discard(name)
        self._base[name] = value
        return value

    def bind(self, name: str, value: Any) -> None:
        self._base[name] = value
        self.unknown.discard(name)

    def __contains__(self, name: object) -> bool:
        return name in self._base or name in self._lazy or name in self._graphs or name in self.unknown

    def __iter__(self) -> Iterator[str]:
        return iter({**self._lazy, **self._graphs, **self._base})

    def __len__(self) -> int:
        return len({**self._lazy, **self._graphs, **self._base})


_UNKNOWN_KEY = "\0unknown"  # not a valid formula name, so it cannot clash


def bind_inputs(version: OpVersion, input_shapes: Sequence[Shape | None],
                problems: list[ShapeProblem]) -> dict[str, Any]:
    """Input names -> shapes and signature dims -> sizes; mismatches are appended to `problems`.

    An entry of `input_shapes` is a shape, None for an absent input, or UNKNOWN_SHAPE.
    """
    env: dict[str, Any] = {}
    unknown: set[str] = set()
    position = 0
    for param in version.inputs:
        if param.variadic:
            shapes = list(input_shapes[position:])
            position = len(input_shapes)
            if any(s is UNKNOWN_SHAPE for s in shapes):
                unknown.add(param.name)
                unknown.update(_signature_names(param))
                continue
            env[param.name] = [list(s) if s is not None else None for s in shapes]
            for shape in shapes:
                if shape is not None and param.shape is not None:
                    _match_signature(param, list(shape), env, problems)
            continue
        shape = input_shapes[position] if position < len(input_shapes) else None
        position += 1
        if shape is UNKNOWN_SHAPE:
            unknown.add(param.name)
            unknown.update(_signature_names(param))
            continue
        env[param.name] = list(shape) if shape is not None else None
        if shape is not None and param.shape is not None:
            _match_signature(param, list(shape), env, problems)
    env[_UNKNOWN_KEY] = unknown - set(env)
    return env


def _signature_names(param: Param) -> set[str]:
    return {d.lstrip("*") for d in param.shape or () if isinstance(d, str)}


@functools.cache
def _signature_layout(signature: tuple[str | int, ...]) -> tuple[list[str | int], list[int], int]:
    """A shape signature as a list, the positions of its starred names, how many dims it fixes (read once per
    distinct signature)."""
    stars = [i for i, d in enumerate(signature) if isinstance(d, str) and d.startswith("*")]
    return list(signature), stars, len(signature) - len(stars)


def _match_signature(param: Param, shape: Shape, env: dict[str, Any], problems: list[ShapeProblem]) -> None:
    signature, stars, fixed = _signature_layout(tuple(param.shape or ()))
    if (not stars and len(shape) != fixed) or (stars and len(shape) < fixed):
        want = f"rank {fixed}" if not stars else f"rank >= {fixed}"
        problems.append(ShapeProblem("rank", f"input '{param.name}' has rank {len(shape)}, the signature "
                                              f"[{', '.join(map(str, signature))}] needs {want}"))
        return
    star = stars[0] if stars else len(signature)
    tail = len(signature) - star - 1
    pairs: list[tuple[str | int, Any]] = list(zip(signature[:star], shape[:star], strict=True))
    if stars:
        pairs.append((str(signature[star])[1:], shape[star:len(shape) - tail]))
        pairs += list(zip(signature[star + 1:], shape[len(shape) - tail:], strict=True))
    for sig, actual in pairs:
        if isinstance(sig, int):
            if _differs(sig, actual):
                problems.append(ShapeProblem("binding", f"input '{param.name}' needs a dim of {sig}, has {actual}"))
        elif sig in env and env[sig] is not None:
            if _differs(env[sig], actual):
                problems.append(ShapeProblem("binding", f"input '{param.name}': dim {sig} is {actual} here but "
                                                        f"{env[sig]} elsewhere"))
        else:
            env[sig] = actual


def _differs(a: Any, b: Any) -> bool:
    try:
        return bool(a != b)
    except Undecided:
        return False


def graph_value(given: Any) -> GraphValue | None:
    """What formulas see of a graph attribute: a GraphValue as it is, an onnx GraphProto by its declared inputs
    and outputs (`opset.validate.facts.declared_graph`), None for an absent one."""
    if given is None or isinstance(given, GraphValue):
        return given
    from opset.validate.facts import declared_graph

    return declared_graph(given)


def _is_graph(attr: Attribute) -> bool:
    return attr.type in ("graph", "graphs")


def _input_types(version: OpVersion, input_types: Sequence[str | None]) -> dict[str, Any]:
    """Input name -> its type string (a list of them for a variadic input), for `type_of(X)`."""
    named: dict[str, Any] = {}
    position = 0
    for param in version.inputs:
        if param.variadic:
            named[param.name] = list(input_types[position:])
            position = len(input_types)
            continue
        named[param.name] = input_types[position] if position < len(input_types) else None
        position += 1
    return named


@dataclass(frozen=True, slots=True)
class _VersionPlan:
    """A version's attributes and `let`s as plain containers, read once per version: iterating the registry's
    read-only mappings goes through the generic Mapping machinery, a cost every node paid again."""

    version: OpVersion
    attributes: tuple[tuple[str, Attribute], ...]
    lets: dict[str, Formula]


_PLANS: dict[int, _VersionPlan] = {}


def _plan(version: OpVersion) -> _VersionPlan:
    plan = _PLANS.get(id(version))
    if plan is None or plan.version is not version:
        plan = _PLANS[id(version)] = _VersionPlan(version, tuple(version.attributes.items()), dict(version.lets))
    return plan


def _environment(version: OpVersion, input_shapes: Sequence[Shape | None], given: Mapping[str, Any],
                 problems: list[ShapeProblem], input_types: Sequence[str | None] | None = None) -> _Env:
    base = bind_inputs(version, input_shapes, problems)
    if input_types is not None:
        base[TYPES_KEY] = _input_types(version, input_types)
    plan = _plan(version)
    lazy: dict[str, Formula] = plan.lets.copy()
    graphs: dict[str, Any] = {}
    for name, attr in plan.attributes:
        if _is_graph(attr) and given.get(name) is not None:
            graphs[name] = given[name]
        elif name in given and given[name] is not None:
            base[name] = _formula_value(attr.type, given[name])
        elif attr.default is not None:
            base[name] = thaw(attr.default)  # a fresh plain copy: callers may own and change it
        elif attr.default_expr is not None:
            lazy[name] = attr.default_expr
        else:
            base[name] = None
    return _Env(base, lazy, graphs)


def _formula_value(attr_type: str, value: Any) -> Any:
    """What a formula sees of an attribute: a type proto as its type text (`tensor(float)`), else the value."""
    if attr_type == "type_proto" and not isinstance(value, str):
        return proto_type_text(value)
    if attr_type == "type_protos" and isinstance(value, list | tuple):
        return [v if isinstance(v, str) else proto_type_text(v) for v in value]
    return value


def resolve_attributes(version: OpVersion, given: Mapping[str, Any],
                       input_shapes: Sequence[Shape | None] = ()) -> dict[str, Any]:
    """Every attribute of the version: the given value, else its default, else its default formula, else None."""
    return _attributes_from(version, _environment(version, input_shapes, given, []))


def _attributes_from(version: OpVersion, env: _Env) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attr in _plan(version).attributes:
        if _is_graph(attr):
            out[name] = env.given_graph(name)
            continue
        try:
            out[name] = env[name]
        except (FormulaError, Undecided):
            out[name] = None  # the default needs shapes that are not known
    return out


def infer_shapes(version: OpVersion, input_shapes: Sequence[Shape | None], attributes: Mapping[str, Any],
                 values: Mapping[str, Sequence[Any]] | None = None, *, all_values_known: bool = False,
                 output_count: int | None = None, input_types: Sequence[str | None] | None = None) -> InferResult:
    """Output shapes from the shape formulas; constraint violations and binding mismatches as problems.

    `output_count` is how many outputs the node states (None: not known). A variadic output's name stands
    for the number of values it gets (Split's `outputs`); without `output_count` a formula using it is undecided.
    `input_types` (positional, None where unknown) serve `type_of(X)`. A graph attribute (a GraphProto or a
    `GraphValue`) is checked against its signature, and its outputs serve `graph_shapes` and `graph_types`.
    """
    problems: list[ShapeProblem] = []
    env = _environment(version, input_shapes, attributes, problems, input_types)
    _bind_output_arity(version, env, output_count)
    resolved = _attributes_from(version, env)
    outputs: list[Shape | None] = []
    for param in version.outputs:
        shapes = _output_shape(param, env, values, problems, empty_allowed=_may_be_empty(version, param))
        if param.variadic and isinstance(shapes, list) and all(isinstance(s, list) or s is None for s in shapes):
            outputs.extend(shapes)
        else:
            outputs.append(shapes)
    problems += check_constraints(version, env, values)
    readings = applicable_readings(version, env, values, undecided_holds=not all_values_known) \
        if version.readings else []
    out_values = [_output_values(p, env, values) for p in version.outputs] \
        if any(p.value is not None for p in version.outputs) else []
    for name, attr in _plan(version).attributes:
        if attr.signature is not None and env.given_graph(name) is not None:
            problems += check_graph(version, name, env)
    types = _output_types(version, env, len(outputs)) if any(p.types is not None for p in version.outputs) else []
    return InferResult(outputs=outputs, attributes=resolved, problems=problems, readings=readings,
                       values=out_values, types=types)


def _output_types(version: OpVersion, env: _Env, count: int) -> list[str | None]:
    """Per node output, its type by its output's `types` formula (None where there is none or it is undecided)."""
    types: list[str | None] = []
    for param in version.outputs:
        got: Any = None
        if param.types is not None:
            try:
                got = param.types.evaluate(env)
            except (Undecided, FormulaError):
                got = None
        if param.variadic:
            items = got if isinstance(got, list | tuple) else []
            types += [t if isinstance(t, str) else None for t in items]
        else:
            types.append(got if isinstance(got, str) else None)
    return types[:count] + [None] * (count - len(types))


# ---- graph attributes: their signatures ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expected:
    """What one graph input or output must be by the signature: its part, an exact type and shape where the
    signature's formulas give them, the types its type variable allows."""

    part: GraphParam
    type: str | None
    allowed: frozenset[str] | None
    shape: Shape | None


def expected_ports(version: OpVersion, attribute: str, side: str, count: int, env: _Env
                   ) -> list[Expected] | str:
    """The signature's `side` ("inputs" or "outputs") of `attribute` laid over `count` values, or why it cannot be
    (a message: the count does not fit). Parts whose count cannot be decided make the layout unknown: []."""
    attr = version.attributes[attribute]
    assert attr.signature is not None
    parts: tuple[GraphParam, ...] = getattr(attr.signature, side)
    counts: dict[str, int] = {}
    for part in parts:
        if not part.variadic:
            counts[part.name] = 1
        elif part.count is not None:
            try:
                n = part.count.evaluate(env)
            except (Undecided, FormulaError):
                return []
            if not isinstance(n, int) or n < 0:
                return []
            counts[part.name] = n
    fixed = sum(counts.values())
    rest = [p for p in parts if p.name not in counts]
    needs = " + ".join(f"{p.name} ({counts[p.name]})" if p.variadic else p.name for p in parts if p.name in counts)
    if rest:
        left = count - fixed
        if left < rest[0].min_arity:
            return (f"has {count} {side}, its signature needs {needs or 'none'} and at least {rest[0].min_arity} "
                    f"for {rest[0].name}")
        counts[rest[0].name] = left
    elif count != fixed:
        return f"has {count} {side}, its signature needs {fixed}: {needs or 'none'}"
    out: list[Expected] = []
    for part in parts:
        n = counts[part.name]
        types = _part_values(part.types, env, part.variadic, n)
        shapes = _part_values(part.shape, env, part.variadic, n)
        constraint = version.type_constraints.get(part.type)
        allowed = frozenset(t.replace(" ", "") for t in constraint.types) if constraint is not None else None
        fixed_type = None if constraint is not None else part.type.replace(" ", "")
        for k in range(n):
            exact = types[k] if isinstance(types[k], str) else fixed_type
            shape = shapes[k]
            out.append(Expected(part, exact, allowed, list(shape) if isinstance(shape, list | tuple) else None))
    return out


def _part_values(formula: Formula | None, env: _Env, variadic: bool, n: int) -> list[Any]:
    """A part's `types` or `shape` per value (None where the formula is absent, undecided or does not fit)."""
    if formula is None:
        return [None] * n
    try:
        got = formula.evaluate(env)
    except (Undecided, FormulaError):
        return [None] * n
    if not variadic:
        return [got]
    if isinstance(got, list | tuple) and len(got) == n:
        return list(got)
    return [None] * n


def graph_inputs(version: OpVersion, attribute: str, input_shapes: Sequence[Shape | None],
                 attributes: Mapping[str, Any], count: int, *, input_types: Sequence[str | None] | None = None,
                 output_count: int | None = None) -> list[Port | None]:
    """What the node gives each of the `count` inputs of its graph attribute `attribute` by the signature: a Port
    with the type and shape where the signature says (None for a value it says nothing about). Where the count does
    not fit, nothing is known ([None] * count): `check_graph` reports it."""
    env = _environment(version, input_shapes, attributes, [], input_types)
    _bind_output_arity(version, env, output_count)
    found = expected_ports(version, attribute, "inputs", count, env)
    if isinstance(found, str) or not found:
        return [None] * count
    return [Port(e.part.name, e.type, tuple(e.shape) if e.shape is not None else None) for e in found]


def check_graph(version: OpVersion, attribute: str, env: _Env) -> list[ShapeProblem]:
    """The graph attribute's inputs and outputs against its signature: counts, types, shapes."""
    graph = env[attribute]
    if not isinstance(graph, GraphValue):
        return []
    problems: list[ShapeProblem] = []
    for side, ports in (("inputs", graph.inputs), ("outputs", graph.outputs)):
        found = expected_ports(version, attribute, side, len(ports), env)
        if isinstance(found, str):
            problems.append(ShapeProblem("graph_signature", f"graph attribute '{attribute}' {found}",
                                         attribute=attribute, port=(side[:-1], 0)))
            continue
        for index, (want, port) in enumerate(zip(found, ports, strict=False)):
            what = f"graph attribute '{attribute}': {side[:-1]} {index} '{port.name}' ({want.part.name})"
            problem = _port_problem(want, port)
            if problem:
                problems.append(ShapeProblem("graph_signature", f"{what} {problem}", attribute=attribute,
                                             port=(side[:-1], index)))
    return problems


def _port_problem(want: Expected, port: Port) -> str | None:
    if port.type is not None:
        if want.type is not None and port.type != want.type:
            return f"is {port.type}, the signature needs {want.type}"
        if want.allowed is not None and port.type not in want.allowed:
            return f"is {port.type}, not one of {want.part.type}: {', '.join(sorted(want.allowed))}"
    if port.shape is not None and want.shape is not None and _shapes_differ(list(port.shape), want.shape):
        return (f"has shape [{', '.join(map(str, port.shape))}], the signature needs "
                f"[{', '.join(map(str, want.shape))}]")
    return None


def _shapes_differ(a: Shape, b: Shape) -> bool:
    """Known ranks differ, or two int dims differ (symbols may take any value)."""
    if len(a) != len(b):
        return True
    return any(type(x) is int and type(y) is int and x != y for x, y in zip(a, b, strict=True))


MAX_OUTPUT_VALUES = 1024  # values tracked for shape-like outputs (Shape, Gather of a shape, Concat ...)


def _output_values(param: Param, env: _Env, values: Mapping[str, Sequence[Any]] | None) -> list[Any] | None:
    """The output's values by its `value` formula: a flat list of ints (or symbolic dims), None when the
    formula does not apply (None), cannot be decided, or gives something else."""
    if param.value is None:
        return None
    try:
        got = param.value.evaluate(env, values)
    except (Undecided, FormulaError):
        return None
    if not isinstance(got, list | tuple) or len(got) > MAX_OUTPUT_VALUES:
        return None
    if not all(isinstance(x, int | Sym) and not isinstance(x, bool) for x in got):
        return None
    return list(got)


def applicable_readings(version: OpVersion, env: Mapping[str, Any],
                        values: Mapping[str, Sequence[Any]] | None = None, *,
                        undecided_holds: bool = True) -> list[ReadingShapes]:
    """The version's other readings whose `when` holds for these shapes and attributes. An undecidable `when`
    (symbolic dims, unknown values) counts as holding for a model (the node may follow it) and, with
    `undecided_holds=False`, as not holding where every value is known (a conformance case)."""
    found = []
    for r in version.readings:
        try:
            applies = bool(r.when.evaluate(env, values))
        except Undecided:
            applies = undecided_holds
        except FormulaError:
            applies = False
        if not applies:
            continue
        shapes: list[Shape | None] = []
        for param in version.outputs:
            formula = r.outputs.get(param.name)
            shape = None
            if formula is not None:
                try:
                    got = formula.evaluate(env, values)
                    shape = list(got) if isinstance(got, list | tuple) else None
                except (Undecided, FormulaError):
                    shape = None
            shapes.append(shape)
        found.append(ReadingShapes(r, tuple(shapes)))
    return found


def _bind_output_arity(version: OpVersion, env: _Env, output_count: int | None) -> None:
    """The variadic output's name -> how many values it gets: the node's outputs after the fixed ones."""
    for param in version.outputs:
        if not param.variadic:
            continue
        arity = None if output_count is None else output_count - (len(version.outputs) - 1)
        if arity is None or arity < 0:
            env.unknown.add(param.name)
        else:
            env.bind(param.name, arity)


def _may_be_empty(version: OpVersion, param: Param) -> bool:
    """Can the parameter hold an optional (whose formula gives None when it is empty)?"""
    constraint = version.type_variable(param.type)
    types = constraint.types if constraint is not None else (param.type,)
    return any(t.startswith("optional(") for t in types)


def _output_shape(param: Param, env: _Env, values: Mapping[str, Sequence[Any]] | None,
                  problems: list[ShapeProblem], *, empty_allowed: bool = False) -> Any:
    if param.formula is None:
        return None
    try:
        shape = param.formula.evaluate(env, values)
    except Undecided:
        return None
    except FormulaError as e:
        problems.append(ShapeProblem("formula", f"shape of output '{param.name}': {e}", unevaluated=True))
        return None
    if shape is None and empty_allowed:
        return None  # an empty optional has no shape
    if not isinstance(shape, list | tuple):
        problems.append(ShapeProblem("formula", f"shape of output '{param.name}' gave {shape!r}, not a list",
                                     unevaluated=True))
        return None
    shape = list(shape)
    negative = [d for d in shape if isinstance(d, int) and d < 0]
    if negative:
        problems.append(ShapeProblem("formula", f"output '{param.name}' would have shape {shape}", unevaluated=True))
        return None
    return shape


def check_constraints(version: OpVersion, env: Mapping[str, Any],
                      values: Mapping[str, Sequence[Any]] | None = None) -> list[ShapeProblem]:
    """Violated constraints (an undecidable one, on symbolic dims or unknown values, is not violated)."""
    problems = []
    for c in version.constraints:
        try:
            ok = c.expr.evaluate(env, values)
        except Undecided:
            continue
        except FormulaError as e:
            problems.append(ShapeProblem(c.id, f"cannot evaluate '{c.expr.text}': {e}", unevaluated=True))
            continue
        if not ok:
            problems.append(ShapeProblem(c.id, violation_message(version, c, env, values)))
    return problems


def violation_message(version: OpVersion, constraint: Constraint, env: Mapping[str, Any],
                      values: Mapping[str, Sequence[Any]] | None = None) -> str:
    """The constraint's message (or its formula) and what it compared, with the values (opset.formula.explain)."""
    from opset.formula.explain import explain_violation

    base = constraint.message or f"violated: {constraint.expr.text}"
    compared = explain_violation(constraint.expr.tree, env, values, _dim_sources(version))
    return f"{base}: {compared}" if compared else base


@functools.cache
def _dim_sources(version: OpVersion) -> dict[str, str]:
    """Each dim name of an input's shape signature -> that input (a message shows the input's shape for it)."""
    return {name: param.name for param in version.inputs for name in sorted(_signature_names(param))}


def validate_attributes(version: OpVersion, given: Mapping[str, Any],
                        input_shapes: Sequence[Shape | None] = ()) -> list[ShapeProblem]:
    """Unknown, missing, mistyped, disallowed, out-of-range or wrong-length attributes."""
    problems = []
    for name in given:
        if name not in version.attributes:
            problems.append(ShapeProblem("attr_unknown", f"unknown attribute '{name}'", attribute=name))
    env: _Env | None = None  # built for the first length to check: most nodes have none, and it binds every input
    for name, attr in _plan(version).attributes:
        value = given.get(name)
        if value is None:
            if attr.required:
                problems.append(ShapeProblem("attr_required", f"required attribute '{name}' is missing",
                                             attribute=name))
            continue
        value = list(value) if isinstance(value, tuple) else value
        if not value_fits(attr.type, value):
            problems.append(ShapeProblem("attr_type", f"attribute '{name}' should be {attr.type}, got {value!r}",
                                         attribute=name))
            continue
        items = value if isinstance(value, list) else [value]
        if attr.allowed is not None:
            bad = [x for x in items if x not in attr.allowed]
            if bad:
                allowed = ", ".join(repr(a) for a in attr.allowed)
                problems.append(ShapeProblem("attr_allowed", f"attribute '{name}' = {value!r} is not one of {allowed}",
                                             attribute=name))
        if attr.range is not None:
            lo, hi = attr.range
            bad = [x for x in items if isinstance(x, int | float) and
                   ((lo is not None and x < lo) or (hi is not None and x > hi))]
            if bad:
                problems.append(ShapeProblem("attr_range", f"attribute '{name}' = {value!r} is outside "
                                                          f"[{_bound(lo)}, {_bound(hi)}]", attribute=name))
        if attr.length is not None and isinstance(value, list):
            if env is None:
                env = _environment(version, input_shapes, given, [])
            try:
                want = attr.length.evaluate(env)
            except (Undecided, FormulaError):
                continue  # the length depends on shapes that are not known here
            if isinstance(want, int) and len(value) != want:
                problems.append(ShapeProblem("attr_length", f"attribute '{name}' has {len(value)} values, "
                                                          f"needs {want} ({attr.length.text})", attribute=name))
    return problems


def _bound(x: float | None) -> str:
    return "inf" if x is None else str(x)


def formula_environment(version: OpVersion, input_shapes: Sequence[Shape | None],
                        attributes: Mapping[str, Any]) -> Mapping[str, Any]:
    """The names a version's formulas see for these input shapes and attributes (inputs bound to their shapes,
    signature dims, attributes with defaults applied, `let`s on demand): for formulas outside shape inference, such
    as a `random` key's arguments. Binding mismatches are not reported here (`infer_shapes` does)."""
    return _environment(version, input_shapes, attributes, [])
