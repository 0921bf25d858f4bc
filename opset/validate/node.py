"""Checks of one node against its resolved op version: arity, attributes, types, shapes, constraints."""

from __future__ import annotations

from collections.abc import Hashable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from opset.check_ids import INFERENCE_CHECKS, reported_check
from opset.dtypes import apply_relation
from opset.errors import ResolutionError
from opset.formula import Sym
from opset.formula.graph_value import GraphValue
from opset.formula.symbolic import holds_unknown
from opset.infer import UNKNOWN_SHAPE, InferResult, ShapeProblem, infer_shapes, validate_attributes
from opset.onnx_proto import pb
from opset.validate.attributes import NO_ATTRIBUTES, NodeAttributes
from opset.validate.diagnostics import Diagnostic
from opset.validate.facts import (
    UNKNOWN,
    Facts,
    FreshDims,
    Shape,
    common_shape,
    format_shape,
    is_sequence_type,
    merge_shapes,
    shapes_conflict,
)
from opset.validate.graph import NodeRec
from opset.validate.signatures import Arity, VersionInfo
from opset.validate.special import ATTRIBUTE_OUTPUTS, Produced, constant_of_shape_values

Memo = dict[Hashable, tuple[list[ShapeProblem], InferResult | None]]


class OutputWrite(NamedTuple):
    """What checking a node wrote for one of its outputs: replayed for a later node of the same signature (written
    to its scope's facts, and to its inferred shapes and values where not None: `ModelValidation._graph`). A named
    tuple: kept outcomes are many, and a tuple of plain values is one the collector stops traversing."""

    position: int
    facts: Facts
    inferred: Shape | None  # None: nothing written to `Scope.inferred`
    values: tuple[Any, ...] | None  # None: nothing written to `Scope.values`


@dataclass(frozen=True, slots=True)
class Subgraph:
    """A graph attribute of the node as validated: where it is (its path) and what it turned out to be."""

    path: str
    graph: pb.GraphProto
    value: GraphValue


@dataclass(slots=True)
class Scope:
    """What one graph knows while it is walked; subgraphs chain their own scope onto the outer one."""

    facts: MutableMapping[str, Facts]
    declared: dict[str, Facts]
    values: MutableMapping[str, tuple[int, ...]] = field(default_factory=dict)  # small int tensors' values
    inferred: dict[str, Shape] = field(default_factory=dict)  # shapes the formulas gave, before merging
    fresh: FreshDims = field(default_factory=FreshDims)  # the run's unknown dims (a sequence's disagreeing dims)
    payload_problems: list[tuple[int, str, str]] = field(default_factory=list)  # this graph's bad initializers
    names: tuple[list[str], list[str]] | None = None  # the graph's input and initializer names, as read
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # (check, message): initializers vs inputs


class NodeCheck:
    """One node's checks; `diags` collects what they find."""

    __slots__ = ("diags", "index", "node", "op", "path", "writes")

    def __init__(self, node: NodeRec, index: int, path: str, op: str, diags: list[Diagnostic]) -> None:
        self.node = node
        self.index = index  # the node's position in its graph
        self.path = path
        self.op = op
        self.diags = diags
        self.writes: list[OutputWrite] = []  # what `check` wrote for the node's outputs, in order

    def error(self, check: str, message: str) -> None:
        self.diags.append(Diagnostic("error", check, message, self.index, self.node.name or None, self.op,
                                     self.path))

    def warning(self, check: str, message: str) -> None:
        self.diags.append(Diagnostic("warning", check, message, self.index, self.node.name or None, self.op,
                                     self.path))

    def unresolved(self, error: ResolutionError, opset: int, hint: str) -> None:
        text = str(error)
        check = "removed_op" if " removed " in text else "unknown_op"
        node = self.node
        if node.op_type not in text:
            text = f"{node.domain or 'ai.onnx'}::{node.op_type} at opset {opset}: {text}"
        self.error(check, f"{text}{hint}")

    def check(self, info: VersionInfo, scope: Scope, memo: Memo | None,
              subgraphs: dict[str, Subgraph] | None = None) -> None:
        """`subgraphs`: the node's graph attributes, already validated (their outputs serve the shape formulas);
        `memo`: formula results by everything they depend on (None: evaluate every node's formulas afresh)."""
        node = self.node
        if info.deprecated is not None:
            self.error("deprecated_op", info.deprecated)
        self._arity(info.inputs, node.inputs, "input")
        self._arity(info.outputs, node.outputs, "output")
        attrs = NodeAttributes(node.attrs, info.attr_types) if node.attrs else NO_ATTRIBUTES
        for name, want, got in attrs.mistyped:
            self.error("attr_type", f"attribute '{name}' must be {want}, not {got}")
        facts = scope.facts
        in_facts = [facts.get(n, UNKNOWN) if n else None for n in node.inputs]
        bound = self._unify(info, in_facts)
        result = self._infer(info, attrs, in_facts, scope, memo, subgraphs or {})
        self._outputs(info, attrs, bound, result, scope, [f.type if f is not None else None for f in in_facts])

    def _arity(self, arity: Arity, names: Sequence[str], what: str) -> None:
        count = len(names)
        if count < arity.low or (arity.high is not None and count > arity.high):
            want = (f"{arity.low}" if arity.high == arity.low else
                    f"{arity.low} or more" if arity.high is None else f"{arity.low} to {arity.high}")
            self.error("arity", f"takes {want} {what}s, got {count}")
            return
        for pos in arity.required:
            if pos < count and not names[pos]:
                self.error("arity", f"required {what} {pos} is empty")

    def _unify(self, info: VersionInfo, in_facts: list[Facts | None]) -> dict[str, str]:
        bound: dict[str, str] = {}
        where: dict[str, str] = {}
        allowed_by = info.allowed
        for pos, f in enumerate(in_facts):
            if f is None or f.type is None:
                continue
            param = info.input_param(pos)
            if param is None:
                continue
            var = param.type
            allowed = allowed_by.get(var)
            name = self.node.inputs[pos]
            if allowed is None:
                if f.type != var.replace(" ", ""):
                    self.error("type_mismatch", f"input '{name}' ({param.name}) is {f.type}, must be {var}")
                continue
            if f.type not in allowed:
                self.error("type_not_allowed", f"input '{name}' ({param.name}) is {f.type}, not one of {var}: "
                                               f"{', '.join(sorted(allowed))}")
                continue
            if param.variadic and not param.homogeneous:
                continue
            before = bound.get(var)
            if before is None:
                bound[var] = f.type
                where[var] = name
            elif before != f.type:
                self.error("type_mismatch", f"type variable {var} is {before} from '{where[var]}' but {f.type} "
                                            f"from '{name}' ({param.name})")
        if info.version.type_relations:
            self._relate(info, bound, where)
        return bound

    def _relate(self, info: VersionInfo, bound: dict[str, str], where: dict[str, str]) -> None:
        """Variables the version's type relations give from bound ones (`T: element(S)`); a variable an input
        binds otherwise is a type mismatch."""
        relations = info.version.type_relations
        for _ in range(len(relations)):
            changed = False
            for var, expr in relations.items():
                given = apply_relation(expr, bound)
                if given is None:
                    continue
                before = bound.get(var)
                if before is None:
                    bound[var] = given
                    changed = True
                elif before != given and var in where:
                    self.error("type_mismatch", f"type variable {var} is {before} from '{where[var]}' but {expr} "
                                                f"gives {given}")
                    where.pop(var)  # reported once
            if not changed:
                return

    def _infer(self, info: VersionInfo, attrs: NodeAttributes, in_facts: list[Facts | None], scope: Scope,
               memo: Memo | None, subgraphs: dict[str, Subgraph]) -> InferResult | None:
        version = info.version
        if not attrs.given and not info.needs_inference and not info.has_required:
            return None
        shapes = tuple(_formula_shape(f) if f is not None else None for f in in_facts)
        values: dict[str, Any] | None = None
        values_key: Hashable = None
        if info.value_inputs:
            values = {}
            for name, pos in info.value_inputs:
                if info.version.inputs[pos].variadic:  # one list of values per present input, all known
                    each = [scope.values.get(n) if n else None for n in self.node.inputs[pos:]]
                    if each and all(k is not None for k in each):
                        values[name] = [list(k) for k in each if k is not None]
                    continue
                known = scope.values.get(self.node.inputs[pos]) if pos < len(self.node.inputs) else None
                if known is not None:
                    values[name] = list(known)
            values_key = tuple(sorted((k, _values_key(v)) for k, v in values.items()))
        # a variadic output's formulas may use how many values the node gives it
        outputs = len(self.node.outputs) if any(p.variadic for p in version.outputs) else None
        types = tuple(f.type if f is not None else None for f in in_facts) if info.uses_types else None
        graphs = {name: sub.value for name, sub in subgraphs.items()}
        key = (info.key, attrs.key, shapes, values_key, outputs, types, tuple(sorted(graphs.items())))
        cached = memo.get(key) if memo is not None else None
        if cached is None:
            listed = [_listed(s) if s is not None and s is not UNKNOWN_SHAPE else s for s in shapes]
            attr_problems = validate_attributes(version, attrs.given, listed)
            given = {**attrs.given, **graphs}
            result = (infer_shapes(version, listed, given, values, output_count=outputs, input_types=types)
                      if info.needs_inference else None)
            cached = (attr_problems, result)
            if memo is not None:
                memo[key] = cached
        attr_problems, result = cached
        mistyped = {name for name, _, _ in attrs.mistyped}
        for p in attr_problems:
            if p.attribute not in mistyped:
                self.error(reported_check(p.check), p.message)
        if result is not None:
            self._shape_problems(result.problems, bool(attr_problems or mistyped), subgraphs)
        return result

    def _shape_problems(self, problems: list[ShapeProblem], bad_attributes: bool,
                        subgraphs: dict[str, Subgraph]) -> None:
        """Report shape and constraint problems, leaving out what only follows from an earlier one
        (a formula that cannot index a too-short kernel_shape, constraints over an input of the wrong rank)."""
        bad_rank = any(p.check == "rank" for p in problems)
        for p in problems:
            if (bad_attributes or bad_rank) and p.unevaluated:
                continue
            if bad_rank and p.check not in INFERENCE_CHECKS:
                continue  # constraints over dims a mis-ranked input could not bind
            sub = subgraphs.get(p.attribute or "") if p.check == "graph_signature" else None
            if sub is not None:
                self._in_subgraph(sub, p)
            else:
                self.error(reported_check(p.check), p.message)

    def _in_subgraph(self, sub: Subgraph, problem: ShapeProblem) -> None:
        """A graph attribute that does not fit its signature: reported inside the graph, at the node producing
        the output at fault (or at the graph itself, for its inputs and counts)."""
        index: int | None = None
        side, position = problem.port or ("", 0)
        if side == "output" and position < len(sub.graph.output):
            name = sub.graph.output[position].name
            index = next((i for i, n in enumerate(sub.graph.node) if name in n.output), None)
        node = sub.graph.node[index] if index is not None else None
        self.diags.append(Diagnostic("error", "graph_signature", problem.message, index,
                                     (node.name or None) if node is not None else None,
                                     f"{node.domain or 'ai.onnx'}::{node.op_type}" if node is not None else self.op,
                                     sub.path))

    def _outputs(self, info: VersionInfo, attrs: NodeAttributes, bound: dict[str, str], result: InferResult | None,
                 scope: Scope, input_types: list[str | None]) -> None:
        version = info.version
        special = ATTRIBUTE_OUTPUTS.get((version.domain, version.name))
        produced: Produced | None = special(attrs.given, input_types) if special is not None else None
        inferred = result.outputs if result is not None else []
        unknowns: dict[Any, Sym] = {}  # this node's `unknown('tag')` dims -> the run's fresh dims standing for them
        for pos, out in enumerate(self.node.outputs):
            if not out:
                continue
            param = info.output_param(pos)
            type_: str | None = None
            if param is not None:
                allowed = info.allowed.get(param.type)
                if allowed is None:
                    type_ = param.type.replace(" ", "")
                else:
                    # the output's `types` formula (a graph's output types ...) says more than its type variable,
                    # which an input may bind to another type (SequenceMap's S: its input and output sequences)
                    stated = result.types[pos] if result is not None and pos < len(result.types) else None
                    type_ = stated or bound.get(param.type)
                    if type_ is None and len(allowed) == 1:
                        type_ = next(iter(allowed))
            if produced is not None and pos == 0:
                type_ = type_ or produced.type
            declared = scope.declared.get(out)
            known_type = type_ or (declared.type if declared is not None else None)
            raw: Any = inferred[pos] if pos < len(inferred) else None  # a shape, or a sequence's element shapes
            shape: Shape | None = None
            inferred_shape: Shape | None = None
            elements: tuple[Shape | None, ...] | None = None
            if raw is not None and (is_sequence_type(known_type) or (known_type is None and _nested(raw))):
                # an element without a shape (a map: ZipMap's sequence of maps) is None
                listed: list[Any] = list(raw)
                elements = tuple(None if e is None else _own_unknowns(tuple(e), unknowns, scope.fresh) for e in listed)
                shape = common_shape(elements, scope.fresh)
                if shape is not None:
                    inferred_shape = scope.inferred[out] = shape
            elif raw is not None:
                shape = inferred_shape = scope.inferred[out] = _own_unknowns(tuple(raw), unknowns, scope.fresh)
            computed = result.values[pos] if result is not None and pos < len(result.values) else None
            written: tuple[Any, ...] | None = None
            if computed is not None:
                written = scope.values[out] = _own_unknowns(tuple(computed), unknowns, scope.fresh)
            if produced is not None and pos == 0:
                shape = shape if shape is not None else produced.shape
                if produced.values is not None:
                    written = scope.values[out] = produced.values
                elif version.name == "ConstantOfShape" and self.node.inputs:
                    filled = constant_of_shape_values(attrs.given, scope.values.get(self.node.inputs[0]))
                    if filled is not None:
                        written = scope.values[out] = filled
            if declared is not None and result is not None and result.readings:
                shape = self._other_reading(out, pos, shape, declared, result)
            facts = self._against_declared(out, type_, shape, declared)
            if elements is not None:
                facts = self._elements_against_declared(out, facts, elements, declared)
            scope.facts[out] = facts
            self.writes.append(OutputWrite(pos, facts, inferred_shape, written))

    def _other_reading(self, out: str, pos: int, shape: Shape | None, declared: Facts,
                       result: InferResult) -> Shape | None:
        """A declared shape that contradicts ours but is what another reading of the op gives: a warning
        naming the disagreement, and the declared shape goes on."""
        if declared.shape is None or shape is None or not shapes_conflict(shape, declared.shape):
            return shape
        for found in result.readings:
            other = found.outputs[pos] if pos < len(found.outputs) else None
            if other is not None and not shapes_conflict(tuple(other), declared.shape):
                r = found.reading
                self.warning("ambiguous_reading",
                             f"output '{out}' is declared {format_shape(declared.shape)}, which follows another "
                             f"reading of the op ({r.id}, as {', '.join(r.followed_by)} do) than the registry's "
                             f"{format_shape(shape)}: {r.note}")
                return declared.shape
        return shape

    def _against_declared(self, out: str, type_: str | None, shape: Shape | None, declared: Facts | None) -> Facts:
        if declared is None:
            return Facts(type_, shape)
        if declared.type is not None and type_ is not None and declared.type != type_:
            self.error("type_mismatch", f"output '{out}' is {type_} but declared {declared.type}")
        if declared.shape is not None and shape is not None and shapes_conflict(shape, declared.shape):
            self.error("shape_mismatch", f"output '{out}' has shape {format_shape(shape)} by the shape formula "
                                         f"but is declared {format_shape(declared.shape)}")
            return Facts(type_ or declared.type, shape)
        return Facts(type_ or declared.type, merge_shapes(shape, declared.shape))

    def _elements_against_declared(self, out: str, facts: Facts, elements: tuple[Shape | None, ...],
                                   declared: Facts | None) -> Facts:
        """A sequence's elements, each checked against the element shape its declaration states."""
        if declared is not None and declared.shape is not None:
            for i, element in enumerate(elements):
                if element is not None and shapes_conflict(element, declared.shape):
                    self.error("shape_mismatch", f"output '{out}': element {i} has shape {format_shape(element)} "
                                                 f"by the shape formula but the sequence's elements are declared "
                                                 f"{format_shape(declared.shape)}")
                    return facts
        return Facts(facts.type, facts.shape, elements)


def _own_unknowns(dims: tuple[Any, ...], unknowns: dict[Any, Sym], fresh: FreshDims) -> tuple[Any, ...]:
    """`dims` with each dim that holds a formula's `unknown('tag')` replaced by a fresh dim of the run, one per
    distinct dim of this node (TopK's values and indices share their `?k`): the same tag in two nodes is two dims
    (two NonZero nodes' counts are not equal because their formulas name them alike), and a node drawing fresh
    dims is checked each time, never replayed (`ModelValidation._check_and_keep`)."""
    if all(type(d) is int for d in dims) or not any(holds_unknown(d) for d in dims):
        return dims
    return tuple(unknowns.setdefault(d, fresh.new()) if holds_unknown(d) else d for d in dims)


_JUST_INT = frozenset({int})


def _values_key(values: list[Any]) -> Hashable:
    """Known values as a memo key: ints as a tuple of them (a filled tensor's 1,024 of them: its repr cost more than
    the rest of the node's check), anything else (floats, a variadic input's lists) by its repr, which tells -0.0 from
    0.0 and keeps NaN equal to itself."""
    if set(map(type, values)) <= _JUST_INT:
        return tuple(values)
    return repr(values)


def _formula_shape(f: Facts) -> Any:
    """What a formula sees of a value: a tensor's shape, a sequence's element shapes (a tuple of them, when the
    count is known), an optional's content; UNKNOWN_SHAPE where that is not known (a map never has one)."""
    if is_sequence_type(f.type):
        return f.elements if f.elements is not None else UNKNOWN_SHAPE
    if f.type is not None and f.type.startswith("map("):
        return UNKNOWN_SHAPE
    return f.shape if f.shape is not None else UNKNOWN_SHAPE


def _listed(shape: Any) -> list[Any]:
    """A shape, or a sequence's element shapes, as the lists formulas take."""
    return [list(d) if isinstance(d, tuple) else d for d in shape]


def _nested(raw: Any) -> bool:
    """A formula's value that is a list of shapes (a sequence's), not a shape."""
    return isinstance(raw, list) and bool(raw) and all(isinstance(d, list) for d in raw)
