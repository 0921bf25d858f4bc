"""Run a whole ONNX model node by node: initializers, topological order, several outputs, model-local
functions expanded (with their attribute references), every node through a `NodeExecutor`.

The default executor is the reference backend (the registry's numpy kernels). `conform --suite onnx-node`
passes the backend under test instead, so a one-op backend runs the node suite's multi-node cases too.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import onnx
from onnx import numpy_helper

from conformance.backends.protocol import Unsupported
from conformance.containers import as_value


class NodeExecutor(Protocol):
    def run(self, node: onnx.NodeProto, inputs: list[np.ndarray | None],
            opset_imports: Mapping[str, int] | None = None) -> list[np.ndarray]: ...


class ModelRunError(Exception):
    """A model that cannot be run: where (graph, node index and name, op) and why."""


class NodeUnsupported(ModelRunError):
    """A node the executor cannot run (an op, version or element type it lacks): not a wrong answer."""


FunctionKey = tuple[str, str]  # (domain, name)


class ModelRunner:
    """A model prepared once and run many times: `ModelRunner(model).run({"x": array})` -> {name: array}."""

    def __init__(self, model: onnx.ModelProto | str | Path, executor: NodeExecutor | None = None) -> None:
        if not isinstance(model, onnx.ModelProto):
            model = onnx.load(str(model))
        self.model = model
        if executor is None:
            from conformance.backends.reference import ReferenceBackend

            executor = ReferenceBackend()
        self.executor = executor
        self.opset_imports = {o.domain: o.version for o in model.opset_import}
        self.functions: dict[FunctionKey, onnx.FunctionProto] = {(f.domain, f.name): f for f in model.functions}
        graph = model.graph
        self.initializers = {t.name: _initializer(t) for t in graph.initializer}
        self.input_names = [i.name for i in graph.input if i.name not in self.initializers]
        self.output_names = [o.name for o in graph.output]
        self.order = topological_order(graph.node, set(self.initializers) | {i.name for i in graph.input})

    def run(self, feeds: Mapping[str, np.ndarray], outputs: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        missing = [n for n in self.input_names if n not in feeds]
        if missing:
            raise ModelRunError(f"no value given for graph input(s) {', '.join(missing)}")
        unknown = [n for n in feeds if n not in self.input_names and n not in self.initializers]
        if unknown:
            raise ModelRunError(f"{', '.join(unknown)}: not an input of the graph (inputs: "
                                f"{', '.join(self.input_names) or 'none'})")
        # a container value (a sequence as a list, a map as a dict) is kept as it is, anything else is an array
        values: dict[str, np.ndarray] = {**self.initializers, **{k: as_value(v) for k, v in feeds.items()}}
        nodes = self.model.graph.node
        for index in self.order:
            self._run_node(nodes[index], index, values, self.opset_imports, "")
        wanted = list(outputs) if outputs is not None else self.output_names
        absent = [n for n in wanted if n not in values]
        if absent:
            raise ModelRunError(f"graph output(s) {', '.join(absent)} were never computed")
        return {n: values[n] for n in wanted}

    def _run_node(self, node: onnx.NodeProto, index: int, values: dict[str, np.ndarray],
                  opset_imports: Mapping[str, int], path: str) -> None:
        where = f"{path}node {index}" + (f" '{node.name}'" if node.name else "") + \
            f" ({node.domain or 'ai.onnx'}::{node.op_type})"
        inputs: list[np.ndarray | None] = []
        for name in node.input:
            if not name:
                inputs.append(None)
            elif name in values:
                inputs.append(values[name])
            else:
                raise ModelRunError(f"{where}: input '{name}' has no value")
        function = self.functions.get((node.domain, node.op_type))
        if function is not None:
            results = self._run_function(function, node, inputs, where)
        else:
            try:
                results = list(self.executor.run(node, inputs, opset_imports=dict(opset_imports)))
            except Unsupported as e:
                raise NodeUnsupported(f"{where}: cannot be run: {e}") from e
            except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, NotImplementedError) as e:
                raise ModelRunError(f"{where}: {type(e).__name__}: {e}") from e
        named = [n for n in node.output if n]
        if len(results) < len([n for n in node.output]) and named:
            last_named = max(i for i, n in enumerate(node.output) if n)
            if last_named >= len(results):
                raise ModelRunError(f"{where}: gave {len(results)} output(s), the node names {len(node.output)}")
        for name, value in zip(node.output, results, strict=False):
            if name:
                values[name] = as_value(value)

    def _run_function(self, function: onnx.FunctionProto, node: onnx.NodeProto, inputs: list[np.ndarray | None],
                      where: str) -> list[np.ndarray]:
        scope: dict[str, np.ndarray] = {}
        for name, value in zip(function.input, inputs, strict=False):
            if value is not None:
                scope[name] = value
        given = {a.name: a for a in node.attribute}
        defaults = {a.name: a for a in function.attribute_proto}
        imports = {**self.opset_imports, **{o.domain: o.version for o in function.opset_import}}
        body = [bind_attributes(n, given, defaults) for n in function.node]
        known = set(scope) | {""}
        for i in topological_order(body, known):
            self._run_node(body[i], i, scope, imports, f"{where} > function {function.name}: ")
        absent = [n for n in function.output if n not in scope]
        if absent:
            raise ModelRunError(f"{where}: function {function.name} never computes {', '.join(absent)}")
        return [scope[n] for n in function.output]


def _initializer(tensor: onnx.TensorProto) -> np.ndarray:
    try:
        return numpy_helper.to_array(tensor)
    except (ValueError, TypeError) as e:  # raw_data of the wrong size, an element type numpy lacks ...
        raise ModelRunError(f"initializer '{tensor.name}' cannot be read: {e}") from e


def bind_attributes(node: onnx.NodeProto, given: Mapping[str, onnx.AttributeProto],
                    defaults: Mapping[str, onnx.AttributeProto]) -> onnx.NodeProto:
    """The function body node with every `ref_attr_name` replaced by the calling node's attribute (or the
    function's default); a reference to an attribute neither gives is dropped, as onnx specifies."""
    if not any(a.ref_attr_name for a in node.attribute):
        return node
    bound = onnx.NodeProto()
    bound.CopyFrom(node)
    del bound.attribute[:]
    for a in node.attribute:
        if not a.ref_attr_name:
            bound.attribute.append(a)
            continue
        source = given.get(a.ref_attr_name) or defaults.get(a.ref_attr_name)
        if source is None:
            continue
        copy = onnx.AttributeProto()
        copy.CopyFrom(source)
        copy.name = a.name
        bound.attribute.append(copy)
    return bound


def topological_order(nodes: Sequence[onnx.NodeProto], available: Iterable[str]) -> list[int]:
    """Node indices in an order where every input is computed first (stable: graph order where it already
    is one). Inputs no node produces count as available (graph inputs, initializers, outer scope)."""
    produced_by: dict[str, int] = {}
    for i, n in enumerate(nodes):
        for out in n.output:
            if out:
                produced_by[out] = i
    have = set(available)
    needs = [0] * len(nodes)
    feeds: dict[int, list[int]] = {}
    for i, n in enumerate(nodes):
        producers = {produced_by[x] for x in n.input if x and x not in have and x in produced_by}
        needs[i] = len(producers)
        for p in producers:
            feeds.setdefault(p, []).append(i)
    ready = [i for i, count in enumerate(needs) if count == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for j in feeds.get(i, ()):
            needs[j] -= 1
            if needs[j] == 0:
                heapq.heappush(ready, j)
    if len(order) < len(nodes):
        stuck = [i for i, count in enumerate(needs) if count > 0]
        raise ModelRunError(f"nodes {', '.join(map(str, stuck[:10]))} depend on each other (a cycle)")
    return order


def run_model(model: onnx.ModelProto | str | Path, feeds: Mapping[str, np.ndarray],
              executor: NodeExecutor | None = None) -> dict[str, np.ndarray]:
    """Every graph output of `model` for `feeds`, computed by the reference kernels (or `executor`)."""
    return ModelRunner(model, executor).run(feeds)
