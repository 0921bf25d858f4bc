"""Graph structure: defined and duplicate names, implicit (outer-scope) inputs of subgraphs, topological
order and cycles, unused initializers. Nothing here looks at the registry."""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Sequence, Set
from dataclasses import dataclass, field
from itertools import chain
from typing import cast

from opset.onnx_proto import pb
from opset.tensor_data import payload_problem
from opset.validate.diagnostics import Diagnostic
from opset.validate.form import node_form_problems
from opset.validate.outcomes import Outcomes

_GRAPH = pb.AttributeProto.GRAPH
_GRAPHS = pb.AttributeProto.GRAPHS
_TENSOR_KINDS = frozenset({pb.AttributeProto.TENSOR, pb.AttributeProto.TENSORS, pb.AttributeProto.SPARSE_TENSOR})


class NodeRec:
    """A node's fields read once from the proto (protobuf field access dominates the hot path). It holds no
    position and, unless the node has graph attributes, no part of the proto: one record serves every node of the
    same bytes (`read_node`), in this model or a later one."""

    __slots__ = (
        "_attrs",
        "attr_bytes",
        "attr_key",
        "domain",
        "form_problems",
        "implicit",
        "inputs",
        "inputs_named",
        "name",
        "op",
        "op_type",
        "outputs",
        "outputs_absent",
        "plain",
        "reads",
        "subgraphs",
        "tensor_problems",
    )

    def __init__(self, node: pb.NodeProto) -> None:
        # slicing a repeated field is about twice as fast as tuple() on it (upb); tuples, as records are shared
        self.inputs: tuple[str, ...] = tuple(node.input[:])
        self.outputs: tuple[str, ...] = tuple(node.output[:])
        self.op_type: str = node.op_type
        self.domain: str = node.domain
        self.name: str = node.name
        self.op = (self.domain, self.op_type)
        self.inputs_named = all(self.inputs)  # no input is left out ("")
        self.outputs_absent = tuple(None if n else "" for n in self.outputs)  # "" where an output is left out
        attrs = node.attribute[:]
        # tuples, not lists, here and below: a kept record should hold no container the collector must traverse
        self.subgraphs: tuple[tuple[str, pb.GraphProto], ...] = ()
        self.tensor_problems: tuple[str, ...] = ()  # `attribute 'value': raw_data holds ...`: a tensor not fitting
        self._attrs: list[pb.AttributeProto] | None = None  # parsed from `attr_bytes` when first asked for
        kinds = {a.type for a in attrs}
        self.reads: Sequence[str] = self.inputs  # the names the node reads, its graphs' outer names included
        self.implicit: tuple[str, ...] = ()  # the outer names its graphs read
        if _GRAPH in kinds or _GRAPHS in kinds:
            self.subgraphs = tuple(subgraphs(node))
            self._attrs = attrs  # a node with graphs keeps its proto's: its graphs are validated in place
            self.implicit = tuple([n for _, g in self.subgraphs for n in sorted(free_names(g))])
            self.reads = tuple([n for n in self.inputs if n]) + self.implicit
        if not kinds.isdisjoint(_TENSOR_KINDS):  # some attribute holds a tensor: its stored values are checked
            self.tensor_problems = tuple([f"attribute '{a.name}'{where}: {problem}" for a in attrs
                                          for where, t in attribute_tensors(a) for problem in (payload_problem(t),)
                                          if problem])
        # what node signatures compare attributes by; a record with graphs is never replayed, so never compared
        self.attr_bytes: tuple[bytes, ...] = () if self.subgraphs else tuple([a.SerializeToString() for a in attrs])
        # what signatures hold of the attributes: their bytes, or a digest of long ones (a forest's lists, a
        # Constant's tensor), so kept outcomes stay small
        size = sum(len(b) for b in self.attr_bytes)
        self.attr_key: tuple[bytes, ...] = self.attr_bytes if size <= DIGESTED_ATTRIBUTE_BYTES else (
            _digest(self.attr_bytes),)
        self.form_problems = node_form_problems(node, attrs)  # what onnx's checker requires of a node's form
        self.plain = not self.subgraphs and not self.tensor_problems and not self.form_problems  # checked, or replayed

    @property
    def attrs(self) -> list[pb.AttributeProto]:
        """The node's attributes: parsed from the record's own bytes (never the model's protos, which the caller
        may change after validating)."""
        if self._attrs is None:
            self._attrs = [pb.AttributeProto.FromString(b) for b in self.attr_bytes]
        return self._attrs


DIGESTED_ATTRIBUTE_BYTES = 1024  # attributes of more bytes are stood for by a digest in node signatures


def _digest(parts: tuple[bytes, ...]) -> bytes:
    """A BLAKE2b digest of the parts, each with its length (so no two different lists of parts share it)."""
    import hashlib  # here: only a node with long attributes is digested, and the import costs a cold run 3 ms

    h = hashlib.blake2b(digest_size=32)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def attribute_tensors(attr: pb.AttributeProto) -> list[tuple[str, pb.TensorProto]]:
    """The tensors an attribute holds, each with where in the attribute it sits (`""`, `[2]`, `.values`)."""
    if attr.type == pb.AttributeProto.TENSOR:
        return [("", attr.t)]
    if attr.type == pb.AttributeProto.TENSORS:
        return [(f"[{k}]", t) for k, t in enumerate(attr.tensors)]
    if attr.type == pb.AttributeProto.SPARSE_TENSOR:
        return [(".values", attr.sparse_tensor.values), (".indices", attr.sparse_tensor.indices)]
    return []


# a larger node (a Constant's tensor, a tree ensemble's lists) is read afresh in every run; exporters write nodes of a
# few KB for their metadata (torch's stack traces)
CACHED_NODE_BYTES = 16 * 1024


class _KeptRecords(Outcomes[NodeRec]):
    """Node records by the node's bytes, bounded by those bytes too: at `BYTES` the store starts afresh."""

    BYTES = 32 * 2**20

    def __init__(self) -> None:
        super().__init__()
        self.size = 0  # bytes of the keys

    def put(self, key: Hashable, outcome: NodeRec) -> None:
        size = len(key) if isinstance(key, bytes) else 0
        if self.size + size > self.BYTES:
            self.clear()
        super().put(key, outcome)
        self.size += size

    def clear(self) -> None:
        super().clear()
        self.size = 0


_READ = _KeptRecords()


def _records(nodes: Sequence[pb.NodeProto], kept: bool) -> list[NodeRec]:
    """Each node's record: `read_node`'s when `kept`, else read afresh."""
    if not kept:
        return [NodeRec(node) for node in nodes]
    data = [node.SerializeToString() for node in nodes]
    if data and max(map(len, data)) <= CACHED_NODE_BYTES:
        found = list(map(_READ.get, data))  # in C while every node is kept (and no large node's bytes hashed)
        if None not in found:
            return cast(list[NodeRec], found)
    return [_kept_record(node, d) for node, d in zip(nodes, data, strict=True)]


def read_node(node: pb.NodeProto) -> NodeRec:
    """The node's record: the one kept for the same bytes when there is one (a node's bytes are what its record
    says), else read now and kept. Serialising a small node costs a third of reading its fields through protobuf,
    so validating a model again, or a model sharing nodes with an earlier one, reads each node once."""
    return _kept_record(node, node.SerializeToString())


def _kept_record(node: pb.NodeProto, data: bytes) -> NodeRec:
    """`read_node` of the node whose bytes are `data`; a record too large to key by, or holding the node's graphs,
    is read and not kept."""
    if len(data) > CACHED_NODE_BYTES:
        return NodeRec(node)
    rec = _READ.get(data)
    if rec is None:
        rec = NodeRec(node)
        if not rec.subgraphs:
            _READ.put(data, rec)
    return rec


@dataclass(slots=True)
class GraphPlan:
    """The nodes of one graph in an order that defines every value before its use (cycles left out)."""

    order: list[int]
    records: list[NodeRec]
    implicit: dict[int, tuple[str, ...]]  # node index -> outer names its subgraphs read
    diagnostics: list[Diagnostic] = field(default_factory=list)


def subgraphs(node: pb.NodeProto) -> Iterable[tuple[str, pb.GraphProto]]:
    """(attribute name, graph) for every graph-valued attribute (If branches, Loop and Scan bodies)."""
    for attr in node.attribute:
        if attr.type == _GRAPH:
            yield attr.name, attr.g
        elif attr.type == _GRAPHS:
            for k, g in enumerate(attr.graphs):
                yield f"{attr.name}[{k}]", g


def free_names(graph: pb.GraphProto) -> set[str]:
    """Names a graph reads without defining them: what it needs from its outer scope."""
    defined = {v.name for v in graph.input} | {t.name for t in graph.initializer}
    defined |= {t.values.name for t in graph.sparse_initializer}
    needed: set[str] = set()
    for node in graph.node:
        needed.update(n for n in node.input if n)
        for _, g in subgraphs(node):
            needed |= free_names(g)
        defined.update(n for n in node.output if n)
    needed.update(v.name for v in graph.output)
    return needed - defined


def plan_graph(graph: pb.GraphProto, outer: Set[str], path: str, kept: bool = True,
               names: tuple[list[str], list[str]] | None = None) -> GraphPlan:
    """Check names and order; `outer` holds the names visible from enclosing graphs; `kept`: node records kept
    across runs (`read_node`), else each node read afresh; `names`, the graph's input and initializer names when
    the caller read them already."""
    diags: list[Diagnostic] = []
    nodes = graph.node
    records = _records(nodes, kept)
    inputs, initializers = names or ([v.name for v in graph.input], [t.name for t in graph.initializer])
    base = _base_names(inputs, initializers, [t.values.name for t in graph.sparse_initializer], path, diags)
    producer = _producers(records, base, outer, nodes, path, diags)
    reads_of = [rec.reads for rec in records]
    implicit = {i: rec.implicit for i, rec in enumerate(records) if rec.implicit} if any(
        [rec.subgraphs for rec in records]) else {}
    consumed = set(chain.from_iterable(reads_of))
    undefined = consumed - producer.keys() - base - outer
    undefined.discard("")
    if undefined:  # reported where a node reads them itself (names only a subgraph reads: where it reads them)
        for i, rec in enumerate(records):
            for name in rec.inputs:
                if name in undefined:
                    diags.append(_node_diag(nodes, i, path, "undefined_input",
                                            f"reads '{name}', which no graph input, initializer or node defines"))
    for v in graph.output:
        consumed.add(v.name)
        if v.name not in producer and v.name not in base and v.name not in outer:
            diags.append(Diagnostic("error", "undefined_output", f"graph output '{v.name}' is never defined",
                                    graph=path))
    for name in [] if consumed.issuperset(initializers) else initializers:
        if name not in consumed:
            diags.append(Diagnostic("warning", "unused_initializer", f"initializer '{name}' is never read",
                                    graph=path))
    if _in_order(records, reads_of, producer):
        order = list(range(len(records)))
    else:
        deps = [[producer[n] for n in reads if n in producer] for reads in reads_of]
        order = _topological(deps, nodes, path, diags)
    return GraphPlan(order=order, records=records, implicit=implicit, diagnostics=diags)


def _producers(records: list[NodeRec], base: set[str], outer: Set[str], nodes: Sequence[pb.NodeProto], path: str,
               diags: list[Diagnostic]) -> dict[str, int]:
    """Which node defines each value; a name defined again, or shadowing an input, initializer or outer value, is
    reported (the first definition stands)."""
    named = [(out, i) for i, rec in enumerate(records) for out in rec.outputs if out]
    producer = dict(named)
    if len(producer) == len(named) and base.isdisjoint(producer) and outer.isdisjoint(producer):
        return producer  # the common case, checked with set operations
    producer = {}
    for out, i in named:
        if out in producer or out in base:
            first = f"node {producer[out]}" if out in producer else "a graph input or initializer"
            diags.append(_node_diag(nodes, i, path, "duplicate_name", f"output '{out}' is already defined by {first}"))
            continue
        if out in outer:
            diags.append(_node_diag(nodes, i, path, "duplicate_name",
                                    f"output '{out}' shadows a value of the enclosing graph"))
        producer[out] = i
    return producer


def _in_order(records: list[NodeRec], reads_of: list[Sequence[str]], producer: dict[str, int]) -> bool:
    """Every node reads only values defined before it (or not by a node at all)."""
    pending = set(producer)  # what no node before this one defines
    for rec, reads in zip(records, reads_of, strict=True):
        if not pending.isdisjoint(reads):
            return False
        pending.difference_update(rec.outputs)
    return True


def _base_names(inputs: list[str], initializers: list[str], sparse: list[str], path: str,
                diags: list[Diagnostic]) -> set[str]:
    """The names graph inputs and initializers define; a name declared twice is reported."""
    base = set(inputs)
    if len(base) < len(inputs):
        _declared_twice(inputs, "graph input", path, diags)
    seen = set(initializers)
    if len(seen) < len(initializers):
        _declared_twice(initializers, "initializer", path, diags)
    return base | seen | set(sparse)


def _declared_twice(names: list[str], what: str, path: str, diags: list[Diagnostic]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            diags.append(Diagnostic("error", "duplicate_name", f"{what} '{name}' is declared twice", graph=path))
        seen.add(name)


def _topological(deps: list[list[int]], nodes: Sequence[pb.NodeProto], path: str,
                 diags: list[Diagnostic]) -> list[int]:
    n = len(deps)
    if all(p < i for i, ds in enumerate(deps) for p in ds):
        return list(range(n))  # already sorted: the common case
    waiting = [0] * n
    users: list[list[int]] = [[] for _ in range(n)]
    for i, ds in enumerate(deps):
        for p in set(ds):
            waiting[i] += 1
            users[p].append(i)
    ready = [i for i in range(n) if waiting[i] == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for u in users[i]:
            waiting[u] -= 1
            if waiting[u] == 0:
                heapq.heappush(ready, u)
    if len(order) < n:
        stuck = [i for i in range(n) if waiting[i] > 0]
        shown = ", ".join(_label(nodes, i) for i in stuck[:8]) + (" ..." if len(stuck) > 8 else "")
        diags.append(_node_diag(nodes, stuck[0], path, "cycle",
                                f"{len(stuck)} node(s) depend on each other's outputs: {shown}"))
    else:
        diags.append(Diagnostic("error", "node_order", "nodes are not in topological order "
                                "(onnx's checker requires it; validated in dependency order)", graph=path))
    return order


def _label(nodes: Sequence[pb.NodeProto], i: int) -> str:
    return f"{i} '{nodes[i].name}'" if nodes[i].name else f"{i} ({nodes[i].op_type})"


def _node_diag(nodes: Sequence[pb.NodeProto], i: int, path: str, check: str, message: str) -> Diagnostic:
    node = nodes[i]
    return Diagnostic("error", check, message, node_index=i, node_name=node.name or None,
                      op=f"{node.domain or 'ai.onnx'}::{node.op_type}", graph=path)
