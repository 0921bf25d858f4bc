"""Tidying a converted ai.onnx graph: what a conversion node by node leaves that a model should not keep.

- A node whose inputs are all constants and whose op only moves or converts data (Transpose, Reshape, Cast ...:
  the transposed weights of an NHWC model, a reshaped bias) becomes a constant, computed by onnx's reference
  evaluator.
- A Transpose whose input is another Transpose's output, the two composing to no permutation at all, is dropped
  and its readers take the first one's input (an NHWC model's layout-dependent ops are wrapped in transposes; two in
  a row undo each other).
- Nodes nobody reads (and that give no graph output) and initializers nobody reads go.
"""

from __future__ import annotations

from collections.abc import Iterable

import onnx
from onnx import helper, numpy_helper

FOLDABLE = frozenset({"Transpose", "Reshape", "Cast", "Identity", "Squeeze", "Unsqueeze", "Flatten", "Concat",
                      "Mul", "Div", "Add", "Sub", "Sqrt", "Reciprocal", "Neg"})
MAX_FOLDED_BYTES = 1 << 28  # a constant larger than this is left to the runtime


def tidy(model: onnx.ModelProto) -> onnx.ModelProto:
    graph = model.graph
    nodes = list(graph.node)
    inits = {t.name: t for t in graph.initializer}
    nodes = _fold(nodes, inits, _opset(model))
    nodes = _cancel_transposes(nodes, {o.name for o in graph.output})
    nodes, inits = _prune(nodes, inits, {o.name for o in graph.output})
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(inits.values())
    inputs_used = {n for node in nodes for n in node.input} | {o.name for o in graph.output}
    kept_info = [vi for vi in graph.value_info if vi.name in inputs_used or any(vi.name in n.output for n in nodes)]
    del graph.value_info[:]
    graph.value_info.extend(kept_info)
    return model


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)


def _fold(nodes: list[onnx.NodeProto], inits: dict[str, onnx.TensorProto], opset: int) -> list[onnx.NodeProto]:
    from onnx.reference import ReferenceEvaluator

    kept = []
    for node in nodes:
        if node.op_type in FOLDABLE and node.domain in ("", "ai.onnx") and node.input and \
                all(n in inits for n in node.input if n) and \
                sum(inits[n].ByteSize() for n in node.input if n) <= MAX_FOLDED_BYTES:
            graph = helper.make_graph([node], "fold", [], [helper.make_tensor_value_info(o, 0, None)
                                                            for o in node.output],
                                      [inits[n] for n in node.input if n])
            single = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
            values = ReferenceEvaluator(single).run(None, {})
            for name, value in zip(node.output, values, strict=True):
                inits[name] = numpy_helper.from_array(value, name)
            continue
        kept.append(node)
    return kept


def _cancel_transposes(nodes: list[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    producer = {o: n for n in nodes for o in n.output}
    renamed: dict[str, str] = {}
    kept = []
    for node in nodes:
        node_inputs = [renamed.get(n, n) for n in node.input]
        del node.input[:]
        node.input.extend(node_inputs)
        first = producer.get(node.input[0]) if node.op_type == "Transpose" and node.input else None
        if first is not None and first.op_type == "Transpose" and node.output[0] not in outputs:
            p, q = _perm(first), _perm(node)
            if p is not None and q is not None and len(p) == len(q) and [p[i] for i in q] == list(range(len(p))):
                renamed[node.output[0]] = first.input[0]
                continue
        kept.append(node)
    return kept


def _perm(node: onnx.NodeProto) -> list[int] | None:
    for a in node.attribute:
        if a.name == "perm":
            return list(a.ints)
    return None


def _prune(nodes: list[onnx.NodeProto], inits: dict[str, onnx.TensorProto],
           outputs: set[str]) -> tuple[list[onnx.NodeProto], dict[str, onnx.TensorProto]]:
    """Drop nodes whose outputs nobody reads, again until none, then the initializers nobody reads."""
    while True:
        read = _read(nodes) | outputs
        alive = [n for n in nodes if any(o in read for o in n.output if o)]
        if len(alive) == len(nodes):
            break
        nodes = alive
    read = _read(nodes) | outputs
    return nodes, {name: t for name, t in inits.items() if name in read}


def _read(nodes: Iterable[onnx.NodeProto]) -> set[str]:
    return {n for node in nodes for n in node.input if n}
