"""Validate a whole model: opset imports, graph structure, then every node in dependency order,
subgraphs (If/Loop/Scan bodies) with their outer scope."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import onnx

from opset.errors import ResolutionError
from opset.formula.graph_value import GraphValue, Port
from opset.infer import UNKNOWN_SHAPE, graph_inputs
from opset.registry import Registry
from opset.tensor_data import payload_problem
from opset.validate.attributes import NO_ATTRIBUTES, NodeAttributes
from opset.validate.diagnostics import Diagnostic
from opset.validate.facts import (
    UNKNOWN,
    Facts,
    FreshDims,
    Shape,
    merge_shapes,
    shapes_conflict,
    tensor_facts,
    value_info_facts,
)
from opset.validate.graph import NodeRec, plan_graph
from opset.validate.node import Memo, NodeCheck, OutputWrite, Scope, Subgraph
from opset.validate.outcomes import Outcomes
from opset.validate.profiles import Profile
from opset.validate.signatures import VersionInfo, VersionTable

_DEFAULT_DOMAINS = ("", "ai.onnx")
_KEPT: WeakKeyDictionary[VersionTable, Outcomes[tuple[OutputWrite, ...]]] = WeakKeyDictionary()


def kept_outcomes(table: VersionTable) -> Outcomes[tuple[OutputWrite, ...]]:
    """The clean node outcomes kept for `table`'s registry (`opset.validate.outcomes`), across validation runs."""
    kept = _KEPT.get(table)
    if kept is None:
        kept = _KEPT[table] = Outcomes()
    return kept


@dataclass(slots=True)
class ValidationResult:
    diagnostics: list[Diagnostic]
    facts: dict[str, Facts]  # every value of the main graph: its type and shape as validated
    inferred: dict[str, Shape]  # main-graph values whose shape the registry's formulas gave


class ModelValidation:
    """One run over one model. `table` (resolution and per-version facts) may be shared between runs."""

    def __init__(self, model: onnx.ModelProto, table: VersionTable, profile: Profile, *, fast: bool = True) -> None:
        """`fast=False` checks every node afresh (no memo of formula results, no replay of a node's outcome): the
        plain path the fast one must agree with."""
        self.model = model
        self.fast = fast
        self.table = table
        self.registry: Registry = table.registry
        self.profile = profile
        self.diags: list[Diagnostic] = []
        self.fresh = FreshDims()
        self.memo: Memo | None = {} if fast else None  # (version, attributes, input shapes, values) -> results
        self.outcomes = kept_outcomes(table)  # node signature -> what a clean check wrote, kept across runs
        self.own_outcomes: dict[Hashable, tuple[OutputWrite, ...]] = {}  # this run only: over KEPT_TENSOR_BYTES
        self.opsets = self._opset_imports()
        self._mapped: dict[str, tuple[str, int] | None] = {}
        self._hints: dict[tuple[str, str, int], str] = {}

    def run(self) -> ValidationResult:
        graph = self.model.graph
        scope = self._scope(graph, None)
        self._graph(graph, "", scope, frozenset())
        return ValidationResult(self.diags, dict(scope.facts), scope.inferred)

    def _opset_imports(self) -> dict[str, int]:
        opsets: dict[str, int] = {}
        for imp in self.model.opset_import:
            domain = "" if imp.domain in _DEFAULT_DOMAINS else imp.domain
            if domain in opsets and opsets[domain] != imp.version:
                self.diags.append(Diagnostic("error", "duplicate_name", f"domain '{imp.domain}' is imported twice, "
                                             f"at opsets {opsets[domain]} and {imp.version}"))
            opsets[domain] = imp.version
            self._check_import(imp.domain, imp.version)
        return opsets

    def _check_import(self, domain: str, version: int) -> None:
        registry_domain, opset = self.profile.map(domain, version)
        try:
            name = self.registry.canonical_domain(registry_domain)
        except ResolutionError:
            return  # a domain the registry lacks only matters when a node uses it (unknown_op)
        newest = self.registry.domains[name].max_opset
        if opset > newest or opset < 1:
            self.diags.append(Diagnostic("error", "unknown_opset", f"opset import {domain or 'ai.onnx'} {version}: "
                                         f"the registry's {name} has opsets 1 to {newest}"))

    def _scope(self, graph: onnx.GraphProto, outer: Scope | None,
               given: list[Port | None] | None = None) -> Scope:
        """The scope of a graph; `given` (a subgraph's) says what the node feeds each graph input, filling in what
        the graph does not declare."""
        local: dict[str, Facts] = {}
        for k, vi in enumerate(graph.input):
            declared = value_info_facts(vi, self.fresh)
            port = given[k] if given is not None and k < len(given) else None
            local[vi.name] = declared if port is None else _fed(declared, port)
        tensors: dict[str, onnx.TensorProto] = {}  # the initializers whose stored values fit their dims
        problems: list[tuple[int, str, str]] = []  # (position, name, problem) of the others, reported by `_graph`
        for k, t in enumerate(graph.initializer):
            name = t.name
            problem = payload_problem(t)  # checked once: `known_values` reads only the tensors that passed
            if problem:
                problems.append((k, name, problem))
                tensors.pop(name, None)
            else:
                tensors[name] = t
            stated = local.get(name)
            held = tensor_facts(t)
            if stated is None or stated.shape is None:
                local[name] = held
            else:
                local[name] = Facts(stated.type or held.type, held.shape)
        declared_facts = {vi.name: value_info_facts(vi, self.fresh) for vi in graph.value_info}
        for vi in graph.output:
            if vi.name not in local:
                declared_facts[vi.name] = value_info_facts(vi, self.fresh)
        if outer is None:
            return Scope(facts=local, declared=declared_facts, values={}, tensors=tensors, fresh=self.fresh,
                         payload_problems=problems)
        return Scope(facts=ChainMap(local, outer.facts), declared=declared_facts,
                     values=ChainMap({}, outer.values), tensors=ChainMap(tensors, outer.tensors), fresh=self.fresh,
                     payload_problems=problems)

    def _graph(self, graph: onnx.GraphProto, path: str, scope: Scope, outer_names: frozenset[str]) -> None:
        plan = plan_graph(graph, outer_names, path)
        self.diags.extend(plan.diagnostics)
        self._initializer_data(graph, path, scope)
        records = plan.records
        for i in plan.order:
            self._node(records[i], path, scope)

    def _initializer_data(self, graph: onnx.GraphProto, path: str, scope: Scope) -> None:
        """Every initializer's stored values fit its dims (checked by `_scope`, before anything decodes one)."""
        for k, name, found in scope.payload_problems:
            self.diags.append(Diagnostic("error", "tensor_data", f"initializer {k} '{name}': {found}", graph=path))
        for k, sparse in enumerate(graph.sparse_initializer):
            for part in ("values", "indices"):
                problem = payload_problem(getattr(sparse, part))
                if problem:
                    self.diags.append(Diagnostic("error", "tensor_data", f"sparse initializer {k} "
                                                 f"'{sparse.values.name}' {part}: {problem}", graph=path))

    def _node(self, rec: NodeRec, path: str, scope: Scope) -> None:
        if rec.holds_tensors:
            self._attribute_data(rec, path)
        mapped = self._mapped[rec.domain] if rec.domain in self._mapped else self._map_domain(rec.domain)
        if mapped is None:
            label = f"{rec.domain or 'ai.onnx'}::{rec.op_type}"
            NodeCheck(rec, path, label, self.diags).error(
                "missing_opset_import", f"domain '{rec.domain or 'ai.onnx'}' has no opset import in the model")
            self._unchecked_outputs(rec, scope)
        else:
            domain, opset = mapped
            found = self.table.lookup(domain, rec.op_type, opset)
            if isinstance(found, ResolutionError):
                label = f"{rec.domain or 'ai.onnx'}::{rec.op_type}"
                NodeCheck(rec, path, label, self.diags).unresolved(found, opset, self._hint(rec, domain, opset))
                self._unchecked_outputs(rec, scope)
            else:
                if rec.subgraphs:  # the node's graphs first: their outputs serve its shape formulas
                    subgraphs = self._subgraphs(rec, path, scope, found)
                    NodeCheck(rec, path, found.version.signature, self.diags).check(found, scope, self.memo,
                                                                                    subgraphs)
                elif self.fast:
                    self._checked_once(rec, path, scope, found)
                else:
                    NodeCheck(rec, path, found.version.signature, self.diags).check(found, scope, None)
                return
        if rec.subgraphs:
            self._subgraphs(rec, path, scope, None)

    def _attribute_data(self, rec: NodeRec, path: str) -> None:
        """Every tensor an attribute holds: its stored values fit its dims (before anything decodes it)."""
        for attr in rec.attrs:
            for where, tensor in _attribute_tensors(attr):
                problem = payload_problem(tensor)
                if problem:
                    NodeCheck(rec, path, f"{rec.domain or 'ai.onnx'}::{rec.op_type}", self.diags).error(
                        "tensor_data", f"attribute '{attr.name}'{where}: {problem}")

    def _checked_once(self, rec: NodeRec, path: str, scope: Scope, info: VersionInfo) -> None:
        """Check the node, or replay what checking an earlier node of the same signature wrote, in this run or an
        earlier one (`opset.validate.outcomes`). Only a check that reported nothing and drew no fresh dim is replayed
        (its diagnostics would name the other node)."""
        key = _signature(rec, scope, info)
        own = rec.holds_tensors and sum(a.ByteSize() for a in rec.attrs) > KEPT_TENSOR_BYTES
        done = self.own_outcomes.get(key) if own else self.outcomes.get(key)
        if done is not None:
            outputs = rec.outputs
            for write in done:
                write.replay(outputs[write.position], scope)
            return
        reported, drawn = len(self.diags), self.fresh.count
        check = NodeCheck(rec, path, info.version.signature, self.diags)
        check.check(info, scope, self.memo)
        if len(self.diags) == reported and self.fresh.count == drawn:
            if own:
                self.own_outcomes[key] = tuple(check.writes)
            else:
                self.outcomes.put(key, tuple(check.writes))

    def _map_domain(self, domain: str) -> tuple[str, int] | None:
        if domain in self._mapped:
            return self._mapped[domain]
        key = "" if domain in _DEFAULT_DOMAINS else domain
        imported = self.opsets.get(key)
        mapped = None if imported is None else self.profile.map(domain, imported)
        self._mapped[domain] = mapped
        return mapped

    def _hint(self, node: NodeRec, domain: str, opset: int) -> str:
        """The op's first opset when it came later, or where else the registry has an op of this name
        (a Tengine op written into the default domain)."""
        key = (node.op_type, domain, opset)
        if key not in self._hints:
            self._hints[key] = self._find_hint(node.op_type, domain, opset)
        return self._hints[key]

    def _find_hint(self, op_type: str, domain: str, opset: int) -> str:
        try:
            op = self.registry.ops.get((self.registry.canonical_domain(domain), op_type))
        except ResolutionError:
            op = None
        if op is not None and op.versions[0].since > opset:
            return f" (it starts at opset {op.versions[0].since})"
        elsewhere = sorted(d for (d, name) in self.registry.ops if name == op_type)
        if not elsewhere:
            return ""
        return f" (the registry has {op_type} in {', '.join(elsewhere)}: is the node's domain wrong?)"

    def _unchecked_outputs(self, rec: NodeRec, scope: Scope) -> None:
        for out in rec.outputs:
            if out:
                scope.facts[out] = scope.declared.get(out, UNKNOWN)

    def _subgraphs(self, rec: NodeRec, path: str, scope: Scope, info: VersionInfo | None) -> dict[str, Subgraph]:
        """Validate every graph attribute of the node, its inputs bound to what the op's signature says the node
        feeds them, with the enclosing scopes visible; the validated graphs by attribute name."""
        done: dict[str, Subgraph] = {}
        for attr_name, g in rec.subgraphs:
            label = rec.name or f"{rec.op_type}_{rec.index}"
            sub_path = f"{path}/{label}.{attr_name}" if path else f"{label}.{attr_name}"
            given = self._graph_inputs(rec, info, attr_name, len(g.input), scope) if info is not None else None
            inner = self._scope(g, scope, given)
            self._graph(g, sub_path, inner, frozenset(_visible(scope.facts)))
            if info is not None and attr_name in info.version.attributes:
                done[attr_name] = Subgraph(sub_path, g, _validated(g, inner))
        return done

    def _graph_inputs(self, rec: NodeRec, info: VersionInfo, attr_name: str, count: int,
                      scope: Scope) -> list[Port | None] | None:
        attr = info.version.attributes.get(attr_name)
        if attr is None or attr.signature is None:
            return None
        in_facts = [scope.facts.get(n, UNKNOWN) if n else None for n in rec.inputs]
        shapes = [(f.shape if f.shape is not None else UNKNOWN_SHAPE) if f is not None else None for f in in_facts]
        listed = [list(s) if s is not None and s is not UNKNOWN_SHAPE else s for s in shapes]
        attrs = NodeAttributes(rec.attrs, info.attr_types) if rec.attrs else NO_ATTRIBUTES
        outputs = len(rec.outputs) if any(p.variadic for p in info.version.outputs) else None
        return graph_inputs(info.version, attr_name, listed, attrs.given, count,
                            input_types=[f.type if f is not None else None for f in in_facts], output_count=outputs)


def _attribute_tensors(attr: onnx.AttributeProto) -> list[tuple[str, onnx.TensorProto]]:
    """The tensors an attribute holds, each with where in the attribute it sits (`""`, `[2]`, `.values`)."""
    if attr.type == onnx.AttributeProto.TENSOR:
        return [("", attr.t)]
    if attr.type == onnx.AttributeProto.TENSORS:
        return [(f"[{k}]", t) for k, t in enumerate(attr.tensors)]
    if attr.type == onnx.AttributeProto.SPARSE_TENSOR:
        return [(".values", attr.sparse_tensor.values), (".indices", attr.sparse_tensor.indices)]
    return []


def _signature(rec: NodeRec, scope: Scope, info: VersionInfo) -> Hashable:
    """Everything a clean check of the node depends on: its version, its attributes (by their bytes), what it reads
    (type, shape, elements of each input; absent ones as None), the values its formulas read, what its outputs
    declare (and which are absent). Names do not count: they only reach diagnostics."""
    facts, declared = scope.facts, scope.declared
    inputs = rec.inputs
    values: list[object] = []
    if info.value_inputs:
        params = info.version.inputs
        for _, pos in info.value_inputs:
            if params[pos].variadic:
                values.append(tuple([scope.known_values(n) if n else None for n in inputs[pos:]]))
            else:
                values.append(scope.known_values(inputs[pos]) if pos < len(inputs) else None)
    attrs = rec.attrs
    return (info.key, tuple([a.SerializeToString() for a in attrs]) if attrs else (),
            tuple([facts.get(n, UNKNOWN) if n else None for n in inputs]),
            tuple([declared.get(n) if n else "" for n in rec.outputs]), tuple(values))


KEPT_TENSOR_BYTES = 1024  # a node whose attributes hold more (a Constant's tensor) is replayed within its run only


def _fed(declared: Facts, port: Port) -> Facts:
    """A graph input: what it declares, completed by what the node feeds it (a conflict is reported against the
    signature, and the declaration goes on)."""
    shape = port.shape
    if declared.shape is not None and (shape is None or shapes_conflict(declared.shape, shape)):
        shape = declared.shape
    else:
        shape = merge_shapes(shape, declared.shape)
    return Facts(declared.type or port.type, shape)


def _validated(graph: onnx.GraphProto, scope: Scope) -> GraphValue:
    """A validated graph: its inputs as declared, its outputs as validated (inferred, merged with declarations)."""
    def port(name: str, facts: Facts) -> Port:
        return Port(name, facts.type, facts.shape)

    fresh = FreshDims()
    inputs = tuple(port(vi.name, value_info_facts(vi, fresh)) for vi in graph.input)
    outputs = tuple(port(vi.name, scope.facts.get(vi.name, UNKNOWN)) for vi in graph.output)
    return GraphValue(inputs, outputs)


def _visible(facts: Mapping[str, Facts]) -> list[str]:
    return list(facts.keys())
