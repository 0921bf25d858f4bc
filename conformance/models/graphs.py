"""Running graphs node by node: the engine under the model runner, and graph attributes as callables.

A graph attribute (If's branches, Loop's and Scan's bodies, FlexAttention's modifiers) reaches a kernel as a
`GraphFunction`: `body(*inputs) -> list of outputs`. Calling it runs the graph's nodes through the same
executor that runs the node holding it, with the values of every enclosing graph visible by name (ONNX's
scoping: a subgraph reads outer values it does not define), and model-local functions expanded.

An executor whose `run` accepts `outer` (or **kwargs) gets an `Outer` for every node that has a graph
attribute: what the node's graphs see around them, and who runs their nodes. Values are what kernels take
and give: numpy arrays, lists (sequences), None (an empty optional), dicts (maps).
"""

from __future__ import annotations

import heapq
import inspect
from collections import ChainMap
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any, Protocol

import numpy as np
import onnx
from onnx import helper, numpy_helper

from conformance.backends.protocol import Outer, Unsupported
from conformance.containers import as_value
from conformance.models.gradient import EnclosingGraph, GradientError, NotDifferentiable, gradient_outputs, is_gradient
from opset.validate.graph import free_names, subgraphs

FunctionKey = tuple[str, str]  # (domain, name)
__all__ = ["FunctionKey", "GraphFunction", "GraphRun", "ModelRunError", "NodeExecutor", "NodeUnsupported", "Outer"]
_GRAPH_TYPES = (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)


class NodeExecutor(Protocol):
    def run(self, node: onnx.NodeProto, inputs: list[Any],
            opset_imports: Mapping[str, int] | None = None) -> list[Any]: ...


class ModelRunError(Exception):
    """A model that cannot be run: where (graph, node index and name, op) and why."""


class NodeUnsupported(ModelRunError):
    """A node the executor cannot run (an op, version or element type it lacks): not a wrong answer."""


class GraphFunction:
    """A graph attribute as a kernel receives it: `body(*inputs)` gives the graph's outputs as a list.

    The inputs bind the graph's inputs by position; every value of the enclosing graphs is visible by name.
    """

    def __init__(self, graph: onnx.GraphProto, outer: Outer, opset_imports: Mapping[str, int], name: str = "") -> None:
        self.graph = graph
        self.outer = outer
        self.opset_imports = dict(opset_imports)
        self.name = name or graph.name
        self.input_names = [i.name for i in graph.input]
        self.output_names = [o.name for o in graph.output]

    def __call__(self, *inputs: Any) -> list[Any]:
        if len(inputs) != len(self.input_names):
            raise ModelRunError(f"{self.outer.path}graph {self.name}: called with {len(inputs)} value(s), it has "
                                f"{len(self.input_names)} input(s) ({', '.join(self.input_names) or 'none'})")
        engine = GraphRun(self.outer.executor, self.outer.functions)
        local: dict[str, Any] = {t.name: initializer(t) for t in self.graph.initializer}
        local.update(zip(self.input_names, (as_value(x) for x in inputs), strict=True))
        outer_values: Any = self.outer.values  # read only: every write goes to `local`
        values: MutableMapping[str, Any] = ChainMap(local, outer_values) if outer_values else local
        path = f"{self.outer.path}graph {self.name} > "
        order = topological_order(self.graph.node, set(values))
        engine.run_nodes(self.graph.node, order, values, self.opset_imports, path)
        absent = [n for n in self.output_names if n not in values]
        if absent:
            raise ModelRunError(f"{path}output(s) {', '.join(absent)} were never computed")
        return [values[n] for n in self.output_names]

    def declared_outputs(self) -> list[tuple[np.dtype[Any] | None, tuple[int, ...] | None]]:
        """Each output's element type and static shape as the graph declares them (None where it does not): what a
        kernel needs to shape an output no call produced (a Loop's scan output after zero iterations)."""
        found: list[tuple[np.dtype[Any] | None, tuple[int, ...] | None]] = []
        for vi in self.graph.output:
            tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
            dtype = None
            if tt is not None and tt.elem_type:
                try:
                    dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))
                except (KeyError, TypeError, ValueError):
                    dtype = None
            shape = None
            if tt is not None and tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
                shape = tuple(int(d.dim_value) for d in tt.shape.dim)
            found.append((dtype, shape))
        return found

    def __repr__(self) -> str:
        return f"GraphFunction({self.name}: {len(self.input_names)} -> {len(self.output_names)})"


def has_graphs(node: onnx.NodeProto) -> bool:
    return any(a.type in _GRAPH_TYPES for a in node.attribute)


class GraphRun:
    """Runs nodes through one executor, expanding model-local functions; nested graphs run the same way."""

    def __init__(self, executor: Any, functions: Mapping[FunctionKey, onnx.FunctionProto]) -> None:
        self.executor = executor
        self.functions = functions

    def run_nodes(self, nodes: Sequence[onnx.NodeProto], order: Iterable[int], values: MutableMapping[str, Any],
                  opset_imports: Mapping[str, int], path: str, constants: frozenset[str] = frozenset()) -> None:
        """`constants`: the names the graph's initializers hold (a Gradient node may read them freely)."""
        graph = EnclosingGraph(nodes, constants)
        for index in order:
            self.run_node(nodes[index], index, values, opset_imports, path, graph)

    def run_node(self, node: onnx.NodeProto, index: int, values: MutableMapping[str, Any],
                 opset_imports: Mapping[str, int], path: str, graph: EnclosingGraph | None = None) -> None:
        where = f"{path}node {index}" + (f" '{node.name}'" if node.name else "") + \
            f" ({node.domain or 'ai.onnx'}::{node.op_type})"
        inputs: list[Any] = []
        for name in node.input:
            if not name:
                inputs.append(None)
            elif name in values:
                inputs.append(values[name])
            else:
                raise ModelRunError(f"{where}: input '{name}' has no value")
        function = self.functions.get((node.domain, node.op_type))
        if function is not None:
            results = self.run_function(function, node, inputs, opset_imports, where)
        elif graph is not None and is_gradient(node):
            results = self.run_gradient(node, inputs, graph, values, opset_imports, where)
        else:
            outer = Outer(values, self.executor, self.functions, f"{where} > ") if has_graphs(node) else None
            try:
                results = list(call_node(self.executor, node, inputs, opset_imports, outer))
            except Unsupported as e:
                raise NodeUnsupported(f"{where}: cannot be run: {e}") from e
            except ModelRunError:
                raise  # a graph attribute's node failed: its message says where
            except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, NotImplementedError) as e:
                raise ModelRunError(f"{where}: {type(e).__name__}: {e}") from e
        named = [n for n in node.output if n]
        if len(results) < len(node.output) and named:
            last_named = max(i for i, n in enumerate(node.output) if n)
            if last_named >= len(results):
                raise ModelRunError(f"{where}: gave {len(results)} output(s), the node names {len(node.output)}")
        for name, value in zip(node.output, results, strict=False):
            if name:
                values[name] = as_value(value)

    def run_gradient(self, node: onnx.NodeProto, inputs: list[Any], graph: EnclosingGraph,
                     values: Mapping[str, Any], opset_imports: Mapping[str, int], where: str) -> list[Any]:
        """Gradient's outputs: the part of `graph` between its xs, zs and y runs forward again through this run (so
        through its executor), then backwards with the rules of `conformance.models.gradient`."""
        def forward(n: onnx.NodeProto, i: int, scope: dict[str, Any]) -> None:
            self.run_node(n, i, scope, opset_imports, f"{where} > forward: ", graph)

        try:
            return list(gradient_outputs(node, inputs, graph, values, opset_imports, forward))
        except NotDifferentiable as e:
            raise NodeUnsupported(f"{where}: {e}") from e
        except GradientError as e:
            raise ModelRunError(f"{where}: {e}") from e

    def run_function(self, function: onnx.FunctionProto, node: onnx.NodeProto, inputs: list[Any],
                     opset_imports: Mapping[str, int], where: str) -> list[Any]:
        scope: dict[str, Any] = {}
        for name, given_name, value in zip(function.input, node.input, inputs, strict=False):
            if given_name:  # an empty optional (None) is a value too; an omitted input is none
                scope[name] = value
        given = {a.name: a for a in node.attribute}
        defaults = {a.name: a for a in function.attribute_proto}
        imports = {**opset_imports, **{o.domain: o.version for o in function.opset_import}}
        body = [bind_attributes(n, given, defaults) for n in function.node]
        known = set(scope) | {""}
        self.run_nodes(body, topological_order(body, known), scope, imports, f"{where} > function {function.name}: ")
        absent = [n for n in function.output if n not in scope]
        if absent:
            raise ModelRunError(f"{where}: function {function.name} never computes {', '.join(absent)}")
        return [scope[n] for n in function.output]


_ACCEPTED: dict[type, tuple[bool, bool]] = {}


def _accepted(kind: type) -> tuple[bool, bool]:
    """(opset_imports, outer): which keywords an executor's `run` takes."""
    known = _ACCEPTED.get(kind)
    if known is None:
        known = _ACCEPTED[kind] = _inspect_run(kind)
    return known


def _inspect_run(kind: Any) -> tuple[bool, bool]:
    try:
        params = inspect.signature(kind.run).parameters
    except (TypeError, ValueError, AttributeError):
        return True, False
    anything = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return anything or "opset_imports" in params, anything or "outer" in params


def call_node(executor: Any, node: onnx.NodeProto, inputs: list[Any], opset_imports: Mapping[str, int],
              outer: Outer | None) -> list[Any]:
    """`executor.run` with what it takes: the opset imports, and for a node with graph attributes the `Outer`."""
    takes_imports, takes_outer = _accepted(type(executor))
    kwargs: dict[str, Any] = {}
    if takes_imports:
        kwargs["opset_imports"] = dict(opset_imports)
    if outer is not None and takes_outer:
        kwargs["outer"] = outer
    return list(executor.run(node, inputs, **kwargs))


def initializer(tensor: onnx.TensorProto) -> np.ndarray:
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
    is one). Inputs no node produces count as available (graph inputs, initializers, outer scope). A node's
    graph attributes read outer values too: a node that produces one of them runs first."""
    produced_by: dict[str, int] = {}
    for i, n in enumerate(nodes):
        for out in n.output:
            if out:
                produced_by[out] = i
    have = set(available)
    needs = [0] * len(nodes)
    feeds: dict[int, list[int]] = {}
    for i, n in enumerate(nodes):
        read = [*n.input, *(sorted(graph_reads(n)) if has_graphs(n) else ())]
        producers = {produced_by[x] for x in read if x and x not in have and x in produced_by} - {i}
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


def graph_reads(node: onnx.NodeProto) -> set[str]:
    """The outer values a node's graph attributes read (the node's implicit inputs)."""
    needed: set[str] = set()
    for _, graph in subgraphs(node):
        needed |= free_names(graph)
    return needed
