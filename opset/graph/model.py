"""`build(inputs=..., outputs=...)`: the ModelProto of the nodes that compute `outputs` from `inputs`.

Names are generated (`Conv_0`, `Conv_0_Y`) where the caller gave none, unique in the model; each domain used
gets the opset import of the newest version it uses (or the caller's); value_info comes from inference; only
the attributes the caller gave are written. The model is validated with `opset validate` before it is returned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from opset.graph.check import BuildError, node_proto, registry
from opset.graph.value import Node, Value

if TYPE_CHECKING:  # onnx is imported when a model is built: `import opset.ops...` stays light
    import onnx


MIN_IR_VERSION = 4


def build(inputs: Sequence[Value] | Mapping[str, Value], outputs: Sequence[Value] | Mapping[str, Value], *,
          name: str = "graph", opsets: Mapping[str, int] | None = None, validate: bool = True) -> onnx.ModelProto:
    """The model computing `outputs` (a mapping names them) from the graph inputs `inputs`.

    `opsets` sets a domain's opset import (registry domain name -> opset); every op written must resolve to its
    own version there. Raises BuildError: a graph input the outputs need but `inputs` does not list, an op that
    does not resolve at its domain's opset, a model `opset validate` rejects.
    """
    import onnx.helper

    in_values = list(inputs.values()) if isinstance(inputs, Mapping) else list(inputs)
    out_values = list(outputs.values()) if isinstance(outputs, Mapping) else list(outputs)
    for v in in_values:
        if not isinstance(v, Value) or not v.is_input:
            _fail("graph_input", f"inputs= takes graph inputs (inputs.tensor), not {v!r}")
    for v in out_values:
        if not isinstance(v, Value) or v.producer is None:
            _fail("graph_output", f"outputs= takes values computed by ops, not {v!r} (pass an input or a constant "
                                  "through Identity to make it an output)")
    nodes = _ordered_nodes(out_values)
    listed = {id(v) for v in in_values}
    for n in nodes:
        for x in n.inputs:
            if x is not None and x.is_input and id(x) not in listed:
                _fail("graph_input", f"'{x.label}' is a graph input the outputs need; list it in inputs=")
    names = _Namer({v.label for v in in_values})
    if isinstance(outputs, Mapping):
        for wanted, v in outputs.items():
            names.give(v, wanted)
    node_protos, initializers = _write_nodes(nodes, names)
    outputs_seen = {id(v) for v in out_values}
    graph = onnx.helper.make_graph(
        node_protos, name,
        [_value_info(v.label, v) for v in in_values],
        [_value_info(names.of(v), v) for v in out_values],
        initializer=initializers,
        value_info=[_value_info(names.of(v), v) for n in nodes for v in n.outputs
                    if v.type is not None and id(v) not in outputs_seen],
    )
    imports = _opset_imports(nodes, opsets or {})
    model = onnx.helper.make_model(graph, producer_name="opset.graph",
                                   opset_imports=[onnx.helper.make_opsetid(d, k) for d, k in imports.items()])
    # the IR version the imports need, and at least the first that lets initializers stay out of the graph inputs
    model.ir_version = max(onnx.helper.find_min_ir_version_for(list(model.opset_import), ignore_unknown=True),
                           MIN_IR_VERSION)
    if validate:
        from opset.validate import validate_model

        errors = [d for d in validate_model(model, registry=registry()) if d.is_error]
        if errors:
            raise BuildError("", "build", [(d.check, f"{d.place()}: {d.message}" if d.place() else d.message)
                                           for d in errors])
    return model


def _fail(check: str, message: str) -> None:
    raise BuildError("", "build", [(check, message)])


class _Namer:
    """Every value's name in the model: a graph input's own, an output's chosen one, else generated; unique."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)
        self.names: dict[int, str] = {}

    def fresh(self, base: str) -> str:
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name

    def give(self, v: Value, wanted: str) -> None:
        if id(v) in self.names:
            _fail("duplicate_name", f"one value is named both '{self.names[id(v)]}' and '{wanted}' in outputs=")
        if wanted in self.taken:
            _fail("duplicate_name", f"output name '{wanted}' is taken by another value")
        self.taken.add(wanted)
        self.names[id(v)] = wanted

    def of(self, v: Value) -> str:
        return self.names[id(v)] if id(v) in self.names else v.label

    def ensure(self, v: Value, base: str) -> str:
        if id(v) not in self.names:
            self.names[id(v)] = self.fresh(base)
        return self.names[id(v)]


def _ordered_nodes(outputs: Sequence[Value]) -> list[Node]:
    """The nodes the outputs depend on, each after the nodes it reads, in the order they were written."""
    found: dict[int, Node] = {}
    todo = [v.producer for v in outputs if v.producer is not None]
    while todo:
        node = todo.pop()
        if id(node) in found:
            continue
        found[id(node)] = node
        todo.extend(x.producer for x in node.inputs if x is not None and x.producer is not None)
    return sorted(found.values(), key=lambda n: n.serial)  # a node is written after every node it reads


def _write_nodes(nodes: list[Node], names: _Namer) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
    from onnx import numpy_helper

    protos: list[onnx.NodeProto] = []
    initializers: list[onnx.TensorProto] = []
    counts: dict[str, int] = {}
    stored = _Initializers()
    reg = registry()
    for node in nodes:
        k = counts.get(node.op_type, 0)
        counts[node.op_type] = k + 1
        node_name = names.fresh(f"{node.op_type}_{k}")
        in_names: list[str] = []
        for x in node.inputs:
            if x is None:
                in_names.append("")
            elif x.array is not None and id(x) not in names.names:
                same = stored.same_as(x.array, bool(x.name))
                if same is not None:  # this array (or, unnamed, an equal one) is an initializer already
                    names.names[id(x)] = same
                    in_names.append(same)
                    continue
                in_names.append(names.ensure(x, x.name or f"{node_name}_{_input_name(node, len(in_names))}"))
                initializers.append(numpy_helper.from_array(x.array, in_names[-1]))
                stored.add(x.array, bool(x.name), in_names[-1])
            else:
                in_names.append(names.of(x) if x.producer is None else names.names[id(x)])
        version = reg.op(node.domain, node.op_type).version(node.since)
        out_names = [""] * (max(v.index for v in node.outputs) + 1)
        for v in node.outputs:
            out_names[v.index] = names.ensure(v, f"{node_name}_{_output_name(node, v.index)}")
        protos.append(node_proto(version, reg.node_domain(node.domain), in_names, out_names, node.attributes,
                                 name=node_name))
    return protos, initializers


class _Initializers:
    """The arrays written as initializers so far: one numpy array used many times is written once (by identity),
    and so are equal unnamed arrays (by dtype, shape and bytes; a `constant(name, ...)` keeps its own name)."""

    def __init__(self) -> None:
        self.by_identity: dict[int, tuple[object, str]] = {}  # the array is kept: its id stays its own
        self.by_content: dict[tuple[str, tuple[int, ...], bytes], str] = {}

    def same_as(self, array: Any, named: bool) -> str | None:
        found = self.by_identity.get(id(array))
        if found is not None:
            return found[1]
        return None if named else self.by_content.get(_content_key(array))

    def add(self, array: Any, named: bool, name: str) -> None:
        self.by_identity[id(array)] = (array, name)
        if not named:
            self.by_content.setdefault(_content_key(array), name)


def _content_key(array: Any) -> tuple[str, tuple[int, ...], bytes]:
    import hashlib

    import numpy as np

    data = np.ascontiguousarray(array)
    digest = hashlib.blake2b(data.tobytes() if data.dtype != object else repr(data.tolist()).encode(),
                             digest_size=20).digest()
    return data.dtype.str, tuple(data.shape), digest


def _input_name(node: Node, position: int) -> str:
    params = registry().op(node.domain, node.op_type).version(node.since).inputs
    return params[min(position, len(params) - 1)].name


def _output_name(node: Node, position: int) -> str:
    params = registry().op(node.domain, node.op_type).version(node.since).outputs
    return params[position].name if position < len(params) else f"{params[-1].name}_{position}"


def _value_info(name: str, v: Value) -> onnx.ValueInfoProto:
    import onnx

    from opset.validate.facts import type_proto

    vi = onnx.ValueInfoProto(name=name)
    tp = type_proto(v.type, v.shape) if v.type is not None else None
    if tp is not None:
        vi.type.CopyFrom(tp)
    return vi


def _opset_imports(nodes: list[Node], given: Mapping[str, int]) -> dict[str, int]:
    """Node domain -> opset: the caller's, else the newest `since` the domain's nodes use; every node must
    resolve to its own version there."""
    reg = registry()
    chosen = {reg.canonical_domain(d): k for d, k in given.items()}
    newest: dict[str, int] = {}
    for n in nodes:
        newest[n.domain] = max(newest.get(n.domain, 0), n.since)
    imports: dict[str, int] = {}
    for domain, since in newest.items():
        opset = chosen.get(domain, since)
        imports[reg.node_domain(domain)] = opset
        for n in nodes:
            if n.domain != domain:
                continue
            found = reg.try_resolve(domain, n.op_type, opset)
            if found is None or found.since != n.since:
                now = f"resolves to {found.signature}" if found is not None else "does not resolve"
                _fail("mixed_opsets", f"{domain} is imported at opset {opset}, where {n.op_type} {now}, but the "
                                      f"model writes {n.op_type}@{n.since}: take every op of a domain from one opset "
                                      f"module (opset.ops.<domain>.v<N>)")
    for domain, k in chosen.items():
        imports.setdefault(reg.node_domain(domain), k)
    return imports
