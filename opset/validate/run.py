"""Validate a whole model: opset imports, graph structure, then every node in dependency order,
subgraphs (If/Loop/Scan bodies) with their outer scope."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from opset.errors import ResolutionError
from opset.formula.graph_value import GraphValue, Port
from opset.infer import UNKNOWN_SHAPE, graph_inputs
from opset.onnx_proto import pb
from opset.registry import Registry
from opset.tensor_data import payload_problem
from opset.validate.attributes import NO_ATTRIBUTES, NodeAttributes
from opset.validate.diagnostics import Diagnostic
from opset.validate.facts import (
    UNKNOWN,
    Facts,
    FreshDims,
    Shape,
    format_shape,
    formula_shape,
    kept_value_info,
    merge_shapes,
    read_value_info,
    shapes_conflict,
    value_info_facts,
)
from opset.validate.form import graph_form, main_graph_form, model_form
from opset.validate.graph import NodeRec, plan_graph
from opset.validate.node import Memo, NodeCheck, OutputWrite, Scope, Subgraph
from opset.validate.outcomes import Outcomes
from opset.validate.profiles import Profile
from opset.validate.signatures import VersionInfo, VersionTable
from opset.validate.tensors import kept_initializer, read_initializer

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

    def __init__(self, model: pb.ModelProto, table: VersionTable, profile: Profile, *, fast: bool = True,
                 form: bool = True) -> None:
        """`fast=False` checks every node afresh (no memo of formula results, no replay of a node's outcome): the
        plain path the fast one must agree with; `form=False` leaves out the file-form checks of
        `opset.validate.form` but for the nodes'."""
        self.model = model
        self.fast = fast
        self.form = form
        self.table = table
        self.registry: Registry = table.registry
        self.profile = profile
        self.diags: list[Diagnostic] = []
        self.fresh = FreshDims()
        self.memo: Memo | None = {} if fast else None  # (version, attributes, input shapes, values) -> results
        self.outcomes = kept_outcomes(table)  # node signature -> what a clean check wrote, kept across runs
        self.opsets = self._opset_imports()
        self._mapped: dict[str, tuple[str, int] | None] = {}
        self._hints: dict[tuple[str, str, int], str] = {}
        # (domain, op) -> `_plain_version`, shared by the runs of one profile and one set of opset imports
        imports = (profile, tuple(self.opsets.items()))
        plain = table.plain_versions.get(imports)
        if plain is None:
            plain = {}
            table.plain_versions.put(imports, plain)
        self._plain = plain

    def run(self) -> ValidationResult:
        graph = self.model.graph
        if self.form:
            self.diags[:0] = model_form(self.model)  # (before what the opset imports found)
        scope = self._scope(graph, None)
        self._graph(graph, "", scope, frozenset())
        return ValidationResult(self.diags, dict(scope.facts), scope.inferred)

    def _opset_imports(self) -> dict[str, int]:
        opsets: dict[str, int] = {}
        self._spelled = {imp.domain for imp in self.model.opset_import}  # the domains as the imports write them
        for imp in self.model.opset_import:
            domain = "" if imp.domain in _DEFAULT_DOMAINS else imp.domain
            if domain in opsets and opsets[domain] != imp.version:
                self.diags.append(Diagnostic("error", "duplicate_name", f"domain '{imp.domain}' is imported twice, "
                                             f"at opsets {opsets[domain]} and {imp.version}"))
            opsets[domain] = imp.version
            self._check_import(imp.domain, imp.version)
        return opsets

    def _check_import(self, domain: str, version: int) -> None:
        key = (self.profile, domain, version)
        if key not in self.table.imports:
            self.table.imports.put(key, self._import_problem(domain, version))
        problem = self.table.imports[key]
        if problem:
            self.diags.append(Diagnostic("error", "unknown_opset", problem))

    def _import_problem(self, domain: str, version: int) -> str | None:
        registry_domain, opset = self.profile.map(domain, version)
        try:
            name = self.registry.canonical_domain(registry_domain)
        except ResolutionError:
            return None  # a domain the registry lacks only matters when a node uses it (unknown_op)
        newest = self.registry.domains[name].max_opset
        if opset > newest or opset < 1:
            return f"opset import {domain or 'ai.onnx'} {version}: the registry's {name} has opsets 1 to {newest}"
        return None

    def _scope(self, graph: pb.GraphProto, outer: Scope | None,
               given: list[Port | None] | None = None) -> Scope:
        """The scope of a graph; `given` (a subgraph's) says what the node feeds each graph input, filling in what
        the graph does not declare."""
        fresh = self.fresh
        declaration = kept_value_info if self.fast else read_value_info
        declarations = [declaration(vi, fresh) for vi in graph.input]
        input_names = [name for name, _ in declarations]
        local: dict[str, Facts] = dict(declarations)
        if given is not None:  # a subgraph's inputs: completed by what its node feeds them
            local = {}
            for k, (name, declared) in enumerate(declarations):
                port = given[k] if k < len(given) else None
                local[name] = declared if port is None else _fed(declared, port)
        initializer = kept_initializer if self.fast else read_initializer
        initializers = [initializer(t) for t in graph.initializer]  # checked once, before anything decodes them
        initializer_names = [t.name for t in initializers]
        # (position, name, problem) of initializers whose values do not fit their dims, reported by `_graph`
        problems = [(k, t.name, t.problem) for k, t in enumerate(initializers) if t.problem]
        values: dict[str, tuple[int, ...]] = {}  # small int initializers' values (a Reshape's shape ...)
        conflicts: list[tuple[str, str]] = []  # (check, message): initializers that contradict their input
        for name, held, _, known in initializers:
            if known is None:
                values.pop(name, None)  # (a later initializer of the same name, whose values are not known)
            else:
                values[name] = known
            stated = local.get(name)
            if stated is None or stated.shape is None or stated.type is None or stated.type == held.type:
                local[name] = held  # (what Facts(stated.type or held.type, held.shape) would be)
            else:
                local[name] = Facts(stated.type, held.shape)
            if stated is not None and stated != held:  # (equal facts, the common case, need no look)
                conflict = _declared_initializer(name, stated, held)
                if conflict is not None:
                    conflicts.append(conflict)
        value_infos = [declaration(vi, fresh) for vi in graph.value_info]
        declared_facts = dict(value_infos)
        if outer is None and self.form:  # the main graph's declarations, as onnx's checker requires them
            self.diags += main_graph_form(graph, [facts for _, facts in declarations],
                                          [facts for _, facts in value_infos])
        for vi in graph.output:
            if vi.name not in local:  # read only then: an unnamed dim would draw a fresh symbol
                declared_facts[vi.name] = declaration(vi, fresh)[1]
        if outer is None:
            return Scope(facts=local, declared=declared_facts, values=values, fresh=self.fresh,
                         payload_problems=problems, names=(input_names, initializer_names), conflicts=conflicts)
        return Scope(facts=ChainMap(local, outer.facts), declared=declared_facts,
                     values=ChainMap(values, outer.values), fresh=self.fresh, payload_problems=problems,
                     names=(input_names, initializer_names), conflicts=conflicts)

    def _graph(self, graph: pb.GraphProto, path: str, scope: Scope, outer_names: frozenset[str]) -> None:
        plan = plan_graph(graph, outer_names, path, self.fast, scope.names)
        self.diags.extend(plan.diagnostics)
        if self.form:
            self._graph_form(graph, path, plan.records, scope, outer_names)
        self._initializer_data(graph, path, scope)
        records = plan.records
        if not self.fast:
            for i in plan.order:
                self._node(records[i], i, path, scope)
            return
        plain = self._plain
        kept = self.outcomes
        facts, inferred, values = scope.facts, scope.inferred, scope.values
        for i in plan.order:
            rec = records[i]
            try:
                info = plain[rec.op]
            except KeyError:  # once per op a run
                info = plain[rec.op] = self._plain_version(rec)
            if info is None or not rec.plain:
                self._node(rec, i, path, scope)
                continue
            # check the node, or replay what checking an earlier node of the same signature wrote, in this run or
            # an earlier one (`opset.validate.outcomes`)
            key = _signature(rec, scope, info)
            done = kept.get(key)
            if done is None:
                self._check_and_keep(rec, i, path, scope, info, key)
                continue
            outputs = rec.outputs
            for write in done:  # the hot path of a model validated again
                out = outputs[write.position]
                if write.inferred is not None:
                    inferred[out] = write.inferred
                if write.values is not None:
                    values[out] = write.values
                facts[out] = write.facts

    def _graph_form(self, graph: pb.GraphProto, path: str, records: list[NodeRec], scope: Scope,
                    outer_names: frozenset[str]) -> None:
        """What onnx's checker requires of the graph's own fields (`opset.validate.form.graph_form`), looked at
        only where something may be wrong: a subgraph, a graph without a name, an IR 3 model's initializers."""
        names = scope.names or ([], [])
        own: set[str] | None = None
        if path:  # a subgraph: may its outputs be outer values? (the main graph's are checked by `plan_graph`)
            own = {*names[0], *names[1], *(o for rec in records for o in rec.outputs)}
        elif graph.name and (self.model.ir_version > 3 or not names[1]):
            return
        self.diags += graph_form(graph, path, self.model.ir_version, own, outer_names, names)

    def _plain_version(self, rec: NodeRec) -> VersionInfo | None:
        """The version nodes of `rec`'s domain and op resolve to; None when they resolve to none (`_node` reports
        why)."""
        mapped = self._map_domain(rec.domain)
        if mapped is None:
            return None
        found = self._lookup(rec.domain, mapped[0], rec.op_type, mapped[1])
        return None if isinstance(found, ResolutionError) else found

    def _lookup(self, node_domain: str, domain: str, op: str, opset: int) -> VersionInfo | ResolutionError:
        """The version a node of `node_domain` resolves to: in the mapped registry domain, or the newer one the
        profile's further domains give (`Profile.also`)."""
        found = self.table.lookup(domain, op, opset)
        for other in self.profile.also(node_domain):
            newest = self.registry.domains[other].max_opset if other in self.registry.domains else 0
            alternative = self.table.lookup(other, op, min(opset, newest))
            if isinstance(alternative, ResolutionError):
                continue
            if isinstance(found, ResolutionError) or alternative.version.since > found.version.since:
                found = alternative
        return found

    def _initializer_data(self, graph: pb.GraphProto, path: str, scope: Scope) -> None:
        """Every initializer's stored values fit its dims (checked by `_scope`, before anything decodes one)."""
        for k, name, found in scope.payload_problems:
            self.diags.append(Diagnostic("error", "tensor_data", f"initializer {k} '{name}': {found}", graph=path))
        for check, message in scope.conflicts:
            self.diags.append(Diagnostic("error", check, message, graph=path))
        for k, sparse in enumerate(graph.sparse_initializer):
            for part in ("values", "indices"):
                problem = payload_problem(getattr(sparse, part))
                if problem:
                    self.diags.append(Diagnostic("error", "tensor_data", f"sparse initializer {k} "
                                                 f"'{sparse.values.name}' {part}: {problem}", graph=path))

    def _node(self, rec: NodeRec, index: int, path: str, scope: Scope) -> None:
        if rec.tensor_problems or rec.form_problems:
            label = f"{rec.domain or 'ai.onnx'}::{rec.op_type}"
            for problem in rec.form_problems:  # what onnx's checker requires of the node's fields
                NodeCheck(rec, index, path, label, self.diags).error("node_form", problem)
            for problem in rec.tensor_problems:  # every tensor an attribute holds: its values fit its dims
                NodeCheck(rec, index, path, label, self.diags).error("tensor_data", problem)
        mapped = self._mapped[rec.domain] if rec.domain in self._mapped else self._map_domain(rec.domain)
        if mapped is None:
            label = f"{rec.domain or 'ai.onnx'}::{rec.op_type}"
            NodeCheck(rec, index, path, label, self.diags).error(
                "missing_opset_import", f"domain '{rec.domain or 'ai.onnx'}' has no opset import in the model")
            self._unchecked_outputs(rec, scope)
        else:
            domain, opset = mapped
            found = self._lookup(rec.domain, domain, rec.op_type, opset)
            if isinstance(found, ResolutionError):
                label = f"{rec.domain or 'ai.onnx'}::{rec.op_type}"
                NodeCheck(rec, index, path, label, self.diags).unresolved(found, opset, self._hint(rec, domain, opset))
                self._unchecked_outputs(rec, scope)
            else:
                if rec.subgraphs:  # the node's graphs first: their outputs serve its shape formulas
                    subgraphs = self._subgraphs(rec, index, path, scope, found)
                    check = NodeCheck(rec, index, path, found.version.signature, self.diags)
                    check.check(found, scope, self.memo, subgraphs)
                else:  # (a plain node is replayed or checked by `_graph`; this one reported its tensors)
                    NodeCheck(rec, index, path, found.version.signature, self.diags).check(found, scope, self.memo)
                return
        if rec.subgraphs:
            self._subgraphs(rec, index, path, scope, None)

    def _check_and_keep(self, rec: NodeRec, index: int, path: str, scope: Scope, info: VersionInfo,
                        key: Hashable) -> None:
        """Check the node and keep what the check wrote under its signature `key`, when it reported nothing and drew
        no fresh dim (its diagnostics would name the node, its fresh dims belong to this run)."""
        reported, drawn = len(self.diags), self.fresh.count
        check = NodeCheck(rec, index, path, info.version.signature, self.diags)
        check.check(info, scope, self.memo)
        if len(self.diags) == reported and self.fresh.count == drawn:
            self.outcomes.put(key, tuple(check.writes))

    def _map_domain(self, domain: str) -> tuple[str, int] | None:
        if domain in self._mapped:
            return self._mapped[domain]
        key = "" if domain in _DEFAULT_DOMAINS else domain
        imported = self.opsets.get(key)
        if domain == "ai.onnx" and "ai.onnx" not in self._spelled:
            imported = None  # onnx's checker: an import of '' serves nodes of domain '' only, not 'ai.onnx' ones
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
        legacy = ("ai.onnx.ort", op_type) in self.registry.ops
        if domain in _DEFAULT_DOMAINS and self.profile.name != "onnxruntime" and legacy:
            return (" (onnxruntime registers it in the default domain, as its optimizer writes it: validate with "
                    "--profile onnxruntime)")
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

    def _subgraphs(self, rec: NodeRec, index: int, path: str, scope: Scope,
                   info: VersionInfo | None) -> dict[str, Subgraph]:
        """Validate every graph attribute of the node, its inputs bound to what the op's signature says the node
        feeds them, with the enclosing scopes visible; the validated graphs by attribute name."""
        done: dict[str, Subgraph] = {}
        for attr_name, g in rec.subgraphs:
            label = rec.name or f"{rec.op_type}_{index}"
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


def _signature(rec: NodeRec, scope: Scope, info: VersionInfo) -> Hashable:
    """Everything a clean check of the node depends on: its version, its attributes (by their bytes or digest), what
    it reads (type, shape, elements of each input; absent ones as None), the values its formulas read, what its
    outputs declare (and which are absent). Names do not count: they only reach diagnostics."""
    facts, declared = scope.facts, scope.declared
    inputs = rec.inputs
    values: tuple[object, ...] = ()
    if info.value_inputs:
        known: list[object] = []
        params = info.version.inputs
        for _, pos in info.value_inputs:
            if params[pos].variadic:
                known.append(tuple([scope.values.get(n) if n else None for n in inputs[pos:]]))
            else:
                known.append(scope.values.get(inputs[pos]) if pos < len(inputs) else None)
        values = tuple(known)
    outputs = rec.outputs
    if declared.keys().isdisjoint(outputs):  # the common case: no output is declared
        stated: tuple[object, ...] = rec.outputs_absent
    else:
        stated = tuple([declared.get(n) if n else "" for n in outputs])
    if rec.inputs_named:  # None only for a name nothing defines (the marker tells it from an absent input)
        return (info.key, rec.attr_key, True, tuple(map(facts.get, inputs)), stated, values)
    return (info.key, rec.attr_key, False, tuple([facts.get(n, UNKNOWN) if n else None for n in inputs]), stated,
            values)




def _declared_initializer(name: str, stated: Facts, held: Facts) -> tuple[str, str] | None:
    """An initializer whose element type or dims contradict the graph input of its name (onnx's shape inference:
    "Inferred shape and existing shape differ"), as (check, message); None when they agree."""
    if stated.type is not None and held.type is not None and stated.type != held.type:
        return ("type_mismatch", f"initializer '{name}' is {held.type} but graph input '{name}' is declared "
                                 f"{stated.type}")
    if stated.shape is not None and held.shape is not None and shapes_conflict(stated.shape, held.shape):
        return ("shape_mismatch", f"initializer '{name}' has shape {format_shape(held.shape)} but graph input "
                                  f"'{name}' is declared {format_shape(stated.shape)}")
    return None


def _fed(declared: Facts, port: Port) -> Facts:
    """A graph input: what it declares, completed by what the node feeds it (a conflict is reported against the
    signature, and the declaration goes on)."""
    shape = port.shape
    if declared.shape is not None and (shape is None or shapes_conflict(declared.shape, shape)):
        shape = declared.shape
    else:
        shape = merge_shapes(shape, declared.shape)
    return Facts(declared.type or port.type, shape)


def _validated(graph: pb.GraphProto, scope: Scope) -> GraphValue:
    """A validated graph: its inputs as declared, its outputs as validated (inferred, merged with declarations)."""
    def port(name: str, facts: Facts) -> Port:
        return Port(name, facts.type, formula_shape(facts))

    fresh = FreshDims()
    inputs = tuple(port(vi.name, value_info_facts(vi, fresh)) for vi in graph.input)
    outputs = tuple(port(vi.name, scope.facts.get(vi.name, UNKNOWN)) for vi in graph.output)
    return GraphValue(inputs, outputs)


def _visible(facts: Mapping[str, Facts]) -> list[str]:
    return list(facts.keys())
