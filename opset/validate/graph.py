"""Graph structure: defined and duplicate names, implicit (outer-scope) inputs of subgraphs, topological
order and cycles, unused initializers. Nothing here looks at the registry."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field

import onnx

from opset.validate.diagnostics import Diagnostic

_GRAPH = onnx.AttributeProto.GRAPH
_GRAPHS = onnx.AttributeProto.GRAPHS
_TENSOR_KINDS = frozenset({onnx.AttributeProto.TENSOR, onnx.AttributeProto.TENSORS, onnx.AttributeProto.SPARSE_TENSOR})


class NodeRec:
    """A node's fields read once from the proto (protobuf field access dominates the hot path)."""

    __slots__ = ("attrs", "domain", "holds_tensors", "index", "inputs", "name", "node", "op_type", "outputs",
                 "subgraphs")

    def __init__(self, index: int, node: onnx.NodeProto) -> None:
        self.index = index
        self.node = node
        # slicing a repeated field is about twice as fast as tuple() on it (upb)
        self.inputs: list[str] = node.input[:]
        self.outputs: list[str] = node.output[:]
        self.op_type: str = node.op_type
        self.domain: str = node.domain
        self.name: str = node.name
        self.attrs: list[onnx.AttributeProto] = node.attribute[:]
        self.subgraphs: list[tuple[str, onnx.GraphProto]] = []
        self.holds_tensors = False  # some attribute holds a tensor (its stored values are checked)
        if self.attrs:
            kinds = {a.type for a in self.attrs}
            if _GRAPH in kinds or _GRAPHS in kinds:
                self.subgraphs = list(subgraphs(node))
            self.holds_tensors = not kinds.isdisjoint(_TENSOR_KINDS)


@dataclass(slots=True)
class GraphPlan:
    """The nodes of one graph in an order that defines every value before its use (cycles left out)."""

    order: list[int]
    records: list[NodeRec]
    implicit: dict[int, list[str]]  # node index -> outer names its subgraphs read
    diagnostics: list[Diagnostic] = field(default_factory=list)


def subgraphs(node: onnx.NodeProto) -> Iterable[tuple[str, onnx.GraphProto]]:
    """(attribute name, graph) for every graph-valued attribute (If branches, Loop and Scan bodies)."""
    for attr in node.attribute:
        if attr.type == _GRAPH:
            yield attr.name, attr.g
        elif attr.type == _GRAPHS:
            for k, g in enumerate(attr.graphs):
                yield f"{attr.name}[{k}]", g


def free_names(graph: onnx.GraphProto) -> set[str]:
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


def plan_graph(graph: onnx.GraphProto, outer: Set[str], path: str) -> GraphPlan:
    """Check names and order; `outer` holds the names visible from enclosing graphs."""
    diags: list[Diagnostic] = []
    nodes = graph.node
    records = [NodeRec(i, node) for i, node in enumerate(nodes)]
    initializers = [t.name for t in graph.initializer]
    base = _base_names(graph, initializers, path, diags)
    producer: dict[str, int] = {}
    for i, rec in enumerate(records):
        for out in rec.outputs:
            if not out:
                continue
            if out in producer or out in base:
                first = f"node {producer[out]}" if out in producer else "a graph input or initializer"
                diags.append(_node_diag(nodes, i, path, "duplicate_name",
                                        f"output '{out}' is already defined by {first}"))
                continue
            if out in outer:
                diags.append(_node_diag(nodes, i, path, "duplicate_name",
                                        f"output '{out}' shadows a value of the enclosing graph"))
            producer[out] = i
    implicit: dict[int, list[str]] = {}
    deps: list[list[int]] = []
    consumed: set[str] = set()
    in_order = True
    for i, rec in enumerate(records):
        mine: list[int] = []
        if rec.subgraphs:
            names = [n for n in rec.inputs if n]
            extra = [n for _, g in rec.subgraphs for n in sorted(free_names(g))]
            if extra:
                implicit[i] = extra
            reads = names + extra
        else:
            names = reads = rec.inputs
        for name in reads:
            if not name:
                continue
            consumed.add(name)
            p = producer.get(name)
            if p is not None:
                mine.append(p)
                in_order = in_order and p < i
            elif name not in base and name not in outer and name in names:
                # names only a subgraph reads are reported where the subgraph reads them
                diags.append(_node_diag(nodes, i, path, "undefined_input",
                                        f"reads '{name}', which no graph input, initializer or node defines"))
        deps.append(mine)
    for v in graph.output:
        consumed.add(v.name)
        if v.name not in producer and v.name not in base and v.name not in outer:
            diags.append(Diagnostic("error", "undefined_output", f"graph output '{v.name}' is never defined",
                                    graph=path))
    for name in initializers:
        if name not in consumed:
            diags.append(Diagnostic("warning", "unused_initializer", f"initializer '{name}' is never read",
                                    graph=path))
    order = list(range(len(records))) if in_order else _topological(deps, nodes, path, diags)
    return GraphPlan(order=order, records=records, implicit=implicit, diagnostics=diags)


def _base_names(graph: onnx.GraphProto, initializers: list[str], path: str, diags: list[Diagnostic]) -> set[str]:
    base: set[str] = set()
    for v in graph.input:
        if v.name in base:
            diags.append(Diagnostic("error", "duplicate_name", f"graph input '{v.name}' is declared twice", graph=path))
        base.add(v.name)
    seen: set[str] = set()
    for name in initializers:
        if name in seen:
            diags.append(Diagnostic("error", "duplicate_name", f"initializer '{name}' is declared twice",
                                    graph=path))
        seen.add(name)
    for t in graph.sparse_initializer:
        seen.add(t.values.name)
    return base | seen


def _topological(deps: list[list[int]], nodes: Sequence[onnx.NodeProto], path: str,
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
        diags.append(Diagnostic("warning", "node_order", "nodes are not in topological order "
                                "(onnx requires it; validated in dependency order)", graph=path))
    return order


def _label(nodes: Sequence[onnx.NodeProto], i: int) -> str:
    return f"{i} '{nodes[i].name}'" if nodes[i].name else f"{i} ({nodes[i].op_type})"


def _node_diag(nodes: Sequence[onnx.NodeProto], i: int, path: str, check: str, message: str) -> Diagnostic:
    node = nodes[i]
    return Diagnostic("error", check, message, node_index=i, node_name=node.name or None,
                      op=f"{node.domain or 'ai.onnx'}::{node.op_type}", graph=path)
