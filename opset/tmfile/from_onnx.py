"""`opset convert MODEL.onnx MODEL.tmfile`: an ai.onnx model as a Tengine `.tmfile`, through the same `maps_to`.

The model is first brought to what the mappings read: opset 18 where onnx's version converter can, else 13
(Softmax's meaning changed at 13, reductions take their axes as inputs from 18), `Constant` nodes and nodes that
only compute constants folded into initializers, every value's shape known (onnx's shape inference, Shapes of known
shapes folded), inference Dropouts and Identities dropped, pool end padding no window reaches trimmed. Then node by
node the first Tengine mapping that converts back to exactly the node (and the follow-up nodes it takes, a Relu
after a Conv becoming the Convolution's fused activation) gives a Tengine node (`onnx_reverse`). Initializers
become Const nodes with buffers (int64 stored as int32, as Tengine's converters store integer constants), graph
inputs InputOp nodes; tensors carry the dims shape inference gives. Nodes are ordered as Tengine's writer orders
them (constants, inputs, then the computation), the graph is validated against the registry, and the file is laid
out by `write_tmfile` as Tengine's own writer lays it out. A node no mapping reproduces is listed with its op;
nothing is written then.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.errors import one_line
from opset.registry import Registry
from opset.tmfile.model import INPUT_OP_ID, Buffer, Model, Node, Subgraph, Tensor
from opset.tmfile.onnx_reverse import Graph, Match, candidates, canonical, match
from opset.tmfile.params import tengine_versions

MIN_OPSET = 13
TARGET_OPSET = 18
CONST_OP_ID = 4
_TENGINE_TYPES: dict[np.dtype[Any], int] = {
    np.dtype("float32"): 0, np.dtype("float16"): 1, np.dtype("int8"): 2, np.dtype("uint8"): 3, np.dtype("int32"): 4,
    np.dtype("int16"): 5}
_STORED: dict[np.dtype[Any], np.dtype[Any]] = {  # what Tengine's converters store other types as
    np.dtype("int64"): np.dtype("int32"), np.dtype("float64"): np.dtype("float32"), np.dtype("bool"): np.dtype("uint8")}
_ONNX_TO_TENGINE: dict[int, int] = {onnx.TensorProto.FLOAT: 0, onnx.TensorProto.FLOAT16: 1, onnx.TensorProto.INT8: 2,
                    onnx.TensorProto.UINT8: 3, onnx.TensorProto.INT32: 4, onnx.TensorProto.INT64: 4,
                    onnx.TensorProto.INT16: 5}


class OnnxConversionError(Exception):
    """The ONNX model cannot be read or prepared for conversion: the message says why."""


@dataclass(frozen=True)
class Unconverted:
    node_index: int
    node_name: str
    op: str

    def __str__(self) -> str:
        return f"node {self.node_index} '{self.node_name}' ({self.op}): no Tengine op's mapping gives this node"


@dataclass(frozen=True)
class TmfileConversion:
    model: Model | None  # None when some node has no Tengine op
    unconverted: tuple[Unconverted, ...]
    matches: tuple[Match, ...]


def prepared(model: onnx.ModelProto, input_shapes: Mapping[str, Sequence[int]] | None = None) -> onnx.ModelProto:
    """The model at opset 13 or later, with fixed input shapes, constants folded and shapes inferred."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    _check_tensors(model.graph)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        raise OnnxConversionError("the model imports no ai.onnx opset")
    others = [o.domain for o in model.opset_import if o.domain not in ("", "ai.onnx")]
    if others and any(n.domain not in ("", "ai.onnx") for n in model.graph.node):
        raise OnnxConversionError(f"nodes of domain {others[0]} have no Tengine mapping (only ai.onnx converts)")
    if opset < TARGET_OPSET:
        model = _upgraded(model, opset)
    model.ir_version = max(model.ir_version, 7)  # initializers need not be graph inputs
    initializers = {t.name for t in model.graph.initializer}
    for vi in model.graph.input:
        if input_shapes and vi.name in input_shapes:
            dims = vi.type.tensor_type.shape.dim
            del dims[:]
            for d in input_shapes[vi.name]:
                dims.add().dim_value = int(d)
    inputs = [vi for vi in model.graph.input if vi.name not in initializers]
    del model.graph.input[:]
    model.graph.input.extend(inputs)
    _fold_constants(model)
    _drop_pass_throughs(model)
    inferred = _inferred(model)
    if _fold_shapes(inferred):  # a Shape of a value of known shape is a constant: fold what follows from it
        _fold_constants(inferred)
        inferred = _inferred(inferred)
    _trim_pool_pads(inferred)
    _global_pools(inferred)
    return inferred


def _inferred(model: onnx.ModelProto) -> onnx.ModelProto:
    try:
        return onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception as e:  # InferenceError, ValidationError, and what its C++ code throws (ValueError, ...)
        raise OnnxConversionError(f"onnx's shape inference fails: {one_line(str(e)) or type(e).__name__}") from e


def _known_shapes(model: onnx.ModelProto) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for vi in [*model.graph.input, *model.graph.value_info, *model.graph.output]:
        t = vi.type.tensor_type
        if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            found[vi.name] = [d.dim_value for d in t.shape.dim]
    return found


def _fold_shapes(model: onnx.ModelProto) -> bool:
    """Shape nodes of values whose shape is known become int64 initializers; whether any did."""
    shapes = _known_shapes(model)
    graph = model.graph
    kept, folded = [], False
    for node in graph.node:
        if node.op_type == "Shape" and node.domain in ("", "ai.onnx") and not node.attribute and \
                node.input[0] in shapes:
            graph.initializer.append(numpy_helper.from_array(np.asarray(shapes[node.input[0]], np.int64),
                                                             node.output[0]))
            folded = True
            continue
        kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)
    return folded


def _trim_pool_pads(model: onnx.ModelProto) -> None:
    """A max or average pool's end padding that no window reaches is dropped (it changes nothing): converters
    from Caffe write [0, 0, 1, 1] where the last window ends inside the input."""
    shapes = _known_shapes(model)
    for node in model.graph.node:
        if node.op_type not in ("MaxPool", "AveragePool") or node.input[0] not in shapes:
            continue
        attrs = {a.name: _attribute(a) for a in node.attribute}
        new = canonical(node.op_type, attrs, shapes[node.input[0]]).get("pads")
        if new is not None and new != attrs.get("pads"):
            for a in node.attribute:
                if a.name == "pads":
                    del a.ints[:]
                    a.ints.extend(new)


def _global_pools(model: onnx.ModelProto) -> None:
    """A pool whose one window covers the whole input (pads beyond it not counted: a MaxPool, or an AveragePool
    without count_include_pad) is the global pool: inception_v1's 7x7 average over a 6x6 plane with [0, 0, 1, 1]
    pads is Tengine's global pooling (the window and pads of that form have no Tengine equivalent)."""
    shapes = _known_shapes(model)
    for node in model.graph.node:
        if node.op_type not in ("MaxPool", "AveragePool") or node.input[0] not in shapes or len(node.output) != 1 \
                or node.output[0] not in shapes:
            continue
        attrs = {a.name: _attribute(a) for a in node.attribute}
        spatial = shapes[node.input[0]][2:]
        kernel = list(attrs.get("kernel_shape") or [])
        r = len(kernel)
        pads = list(attrs.get("pads") or [0] * 2 * r)
        if not spatial or len(spatial) != r or attrs.get("count_include_pad") or \
                attrs.get("auto_pad", "NOTSET") != "NOTSET" or any(d != 1 for d in attrs.get("dilations") or []) or \
                any(d != 1 for d in shapes[node.output[0]][2:]) or \
                any(kernel[i] - pads[i] < spatial[i] for i in range(r)):
            continue
        node.op_type = "GlobalMaxPool" if node.op_type == "MaxPool" else "GlobalAveragePool"
        del node.attribute[:]


def _attribute(a: onnx.AttributeProto) -> Any:
    value = helper.get_attribute_value(a)
    return value.decode() if isinstance(value, bytes) else list(value) if isinstance(value, (list, tuple)) else value

def _upgraded(model: onnx.ModelProto, opset: int) -> onnx.ModelProto:
    """The model at opset 18 (reductions take their axes as inputs there, as the mappings write them), else 13."""
    from onnx import version_converter

    problem = ""
    for target in (TARGET_OPSET, MIN_OPSET):
        if opset >= target:
            return model
        try:
            return version_converter.convert_version(model, target)
        except Exception as e:
            problem = one_line(str(e))
    raise OnnxConversionError(f"opset {opset} cannot be brought to {MIN_OPSET}: {problem}")


def _check_tensors(graph: onnx.GraphProto) -> None:
    """Every initializer and Constant value reads as an array (its data fits its dims and type), or the model is
    refused naming it: the passes after this read them freely."""
    tensors = [(f"initializer '{t.name}'", t) for t in graph.initializer]
    tensors += [(f"Constant node '{n.name or n.output[0] if n.output else ''}'", a.t) for n in graph.node
                if n.op_type == "Constant" for a in n.attribute if a.type == onnx.AttributeProto.TENSOR]
    if graph.sparse_initializer:
        raise OnnxConversionError("sparse initializers have no Tengine form")
    for where, t in tensors:
        try:
            value = numpy_helper.to_array(t)
        except Exception as e:  # onnx raises ValueError, TypeError, KeyError... on data that does not fit
            raise OnnxConversionError(f"{where} cannot be read: {one_line(str(e)) or type(e).__name__}") from e
        if value.dtype == object:
            raise OnnxConversionError(f"{where} holds strings: no Tengine type")


def _fold_constants(model: onnx.ModelProto) -> None:
    """Constant nodes and nodes whose inputs are all constants become initializers (onnx's reference evaluator)."""
    from onnx.reference import ReferenceEvaluator

    graph = model.graph
    values: dict[str, np.ndarray] = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    kept = []
    opsets = list(model.opset_import)
    for node in graph.node:
        if node.domain in ("", "ai.onnx") and (node.op_type == "Constant" or (
                node.input and all(n in values for n in node.input if n) and node.op_type not in _NOT_FOLDED)):
            try:
                single = helper.make_model(helper.make_graph(
                    [node], "fold", [], [helper.make_tensor_value_info(o, 0, None) for o in node.output],
                    [numpy_helper.from_array(values[n], n) for n in node.input if n]), opset_imports=opsets)
                results = ReferenceEvaluator(single).run(None, {})
                if any(np.asarray(r).dtype == object for r in results):
                    raise ValueError("strings are not folded")
            except Exception:  # onnx's evaluator raises what the op's code raises: the node stays for the matcher
                kept.append(node)
                continue
            for name, value in zip(node.output, results, strict=False):
                values[name] = np.asarray(value)
            continue
        kept.append(node)
    read = {n for node in kept for n in node.input} | {o.name for o in graph.output}
    del graph.node[:]
    graph.node.extend(kept)
    del graph.initializer[:]
    graph.initializer.extend(numpy_helper.from_array(v, k) for k, v in values.items() if k in read)


def _drop_pass_throughs(model: onnx.ModelProto) -> None:
    """Identity nodes, and Dropout nodes that do not train (inference's identity), give their input to their readers:
    no Tengine node is needed for them. One that gives a graph output stays (an Identity, Tengine's Noop)."""
    graph = model.graph
    outputs = {o.name for o in graph.output}
    constants = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    read = {n for node in graph.node for n in node.input}
    renamed: dict[str, str] = {}
    kept = []
    for node in graph.node:
        inputs = [renamed.get(n, n) for n in node.input]
        del node.input[:]
        node.input.extend(inputs)
        # a Dropout trains unless its training_mode is a constant false (an empty one says nothing: kept)
        training = node.op_type == "Dropout" and len(node.input) > 2 and bool(node.input[2]) and (
            node.input[2] not in constants or constants[node.input[2]].size != 1
            or bool(constants[node.input[2]].reshape(-1)[0]))
        mask_unread = all(not o or (o not in read and o not in outputs) for o in node.output[1:])
        passes = node.domain in ("", "ai.onnx") and (
            node.op_type == "Identity" or (node.op_type == "Dropout" and not training and mask_unread))
        if passes and node.output[0] not in outputs:
            renamed[node.output[0]] = node.input[0]
            continue
        if passes and node.op_type == "Dropout":
            node.op_type = "Identity"
            del node.input[1:]
            del node.output[1:]
            del node.attribute[:]
        kept.append(node)
    for out in graph.output:
        out.name = renamed.get(out.name, out.name)
    del graph.node[:]
    graph.node.extend(kept)


_NOT_FOLDED = frozenset({"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial",
                         "Bernoulli"})


def to_tmfile(model: onnx.ModelProto, registry: Registry,
              input_shapes: Mapping[str, Sequence[int]] | None = None) -> TmfileConversion:
    """The Tengine model of `model` (OnnxConversionError when it cannot be prepared), or the nodes no op gives."""
    ready = prepared(model, input_shapes)
    graph = ready.graph
    opset = max(o.version for o in ready.opset_import if o.domain in ("", "ai.onnx"))
    constants = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    shapes, types = _shapes_and_types(ready)
    view = Graph(list(graph.node), constants, shapes, {o.name for o in graph.output})
    versions = sorted(tengine_versions(registry).values(), key=lambda v: v.tengine.op_id if v.tengine else 0)
    by_op = candidates(registry, versions)
    matches: list[Match] = []
    missing: list[Unconverted] = []
    taken: set[int] = set()
    for k, node in enumerate(graph.node):
        if k in taken:
            continue
        found = next((m for c in by_op.get(node.op_type, []) if (m := match(view, k, c, registry, opset))), None)
        if found is None:
            missing.append(Unconverted(k, node.name, node.op_type))
            continue
        matches.append(found)
        taken.update(found.nodes)
    if missing:
        return TmfileConversion(None, tuple(missing), tuple(matches))
    return TmfileConversion(_model(ready, matches, constants, shapes, types), (), tuple(matches))


def _shapes_and_types(model: onnx.ModelProto) -> tuple[dict[str, list[Any]], dict[str, int]]:
    shapes: dict[str, list[Any]] = {}
    types: dict[str, int] = {}
    graph = model.graph
    for vi in [*graph.input, *graph.value_info, *graph.output]:
        t = vi.type.tensor_type
        types[vi.name] = t.elem_type
        if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            shapes[vi.name] = [d.dim_value for d in t.shape.dim]
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)
        types[init.name] = init.data_type
    return shapes, types


def _model(model: onnx.ModelProto, matches: Sequence[Match], constants: Mapping[str, np.ndarray],
           shapes: Mapping[str, list[Any]], types: Mapping[str, int]) -> Model:
    graph = model.graph
    tensors: list[Tensor] = []
    index: dict[str, int] = {}
    buffers: list[Buffer] = []
    const_nodes: list[tuple[str, int]] = []

    def tensor(name: str) -> int:
        if name in index:
            return index[name]
        t = len(tensors)
        index[name] = t
        dims = shapes.get(name)
        if name in constants:
            value = constants[name]
            stored: np.ndarray = value.astype(_STORED.get(value.dtype, value.dtype))
            if stored.dtype not in _TENGINE_TYPES:
                raise OnnxConversionError(f"constant '{name}' of type {value.dtype} has no Tengine type")
            data = stored.astype(stored.dtype.newbyteorder("<")).tobytes()
            buffers.append(Buffer(len(buffers), len(data), data))
            tensors.append(Tensor(t, name, len(buffers) - 1, tuple(value.shape), 0, 2, _TENGINE_TYPES[stored.dtype]))
            const_nodes.append((name, t))
        else:
            kind = 3 if name in inputs else 1
            tensors.append(Tensor(t, name, 0, tuple(dims) if dims is not None else None, 0, kind,
                                  _ONNX_TO_TENGINE.get(int(types.get(name, onnx.TensorProto.FLOAT)), 0)))
        return t

    inputs = [vi.name for vi in graph.input]
    for name in inputs:
        tensor(name)
    compute: list[tuple[Match, tuple[int, ...], tuple[int, ...]]] = []
    for m in matches:
        version = m.candidate.version
        refs: list[int] = []
        for p in version.inputs:
            names = m.inputs.get(p.name)
            if not names:
                if any(m.inputs.get(q.name) for q in version.inputs[version.inputs.index(p) + 1:]):
                    raise OnnxConversionError(f"{version.name}: input {p.name} is missing before a later one")
                break
            refs.extend(tensor(n) for n in names)
        compute.append((m, tuple(refs), tuple(tensor(o) for o in m.outputs)))  # (match, inputs, outputs)
    nodes: list[Node] = []
    for name, t in const_nodes:
        nodes.append(Node(len(nodes), name, CONST_OP_ID, 1, "Const", {}, None, (), (t,)))
    input_nodes = []
    for name in inputs:
        input_nodes.append(len(nodes))
        nodes.append(Node(len(nodes), name, INPUT_OP_ID, 1, None, {}, None, (), (index[name],)))
    producer: dict[int, int] = {}
    for m, ins, outs in compute:
        version = m.candidate.version
        assert version.tengine is not None
        field_of = {f.attribute or f.name: f.name for f in version.tengine.layout}
        params = {field_of[a]: v for a, v in m.attributes.items() if a in field_of}
        for t in outs:
            producer[t] = len(nodes)
        node_name = model.graph.node[m.nodes[0]].name or f"{version.name}_{len(nodes)}"
        nodes.append(Node(len(nodes), node_name, version.tengine.op_id, 1, version.name, params, None, ins, outs))
    outputs = tuple(dict.fromkeys(producer[index[o.name]] for o in graph.output if index.get(o.name) in producer))
    subgraph = Subgraph(0, 0, 0, 0, tuple(input_nodes), outputs, tuple(nodes), tuple(tensors), tuple(buffers),
                        graph.name or None)
    return Model((2, 0, 0), 3, 0, None, (subgraph,))  # orig_format 3: ONNX


def main_onnx_to_tmfile(path: str, output: str, registry: Registry, input_shapes: Mapping[str, Sequence[int]]) -> int:
    """Exit 0 when written, 1 when a node has no Tengine op or the graph does not validate, 2 on unreadable files."""
    from opset.tmfile import TmfileError, write_tmfile
    from opset.tmfile.validate import validate_tmfile
    from opset.validate.reading import ModelReadError, read_model

    try:
        source = read_model(path)
    except ModelReadError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    try:
        result = to_tmfile(source, registry, input_shapes)
    except OnnxConversionError as e:
        print(one_line(f"error: {path}: {e}"), file=sys.stderr)
        return 1
    if result.model is None:
        for u in result.unconverted:
            print(one_line(f"{path}: unconverted {u}"), file=sys.stderr)
        ops = sorted({u.op for u in result.unconverted})
        print(f"error: {path}: {len(result.unconverted)} node(s) have no Tengine op ({', '.join(ops)}); nothing "
              "written", file=sys.stderr)
        return 1
    try:
        data = write_tmfile(result.model, registry)
    except TmfileError as e:
        print(one_line(f"error: {path}: {e}"), file=sys.stderr)
        return 1
    from opset.tmfile import read_tmfile

    checked = validate_tmfile(read_tmfile(data, registry), registry)
    errors = [d for d in checked.diagnostics if d.is_error]
    for d in errors:
        print(one_line(f"{path}: {d}"), file=sys.stderr)
    if errors:
        print(f"error: {path}: the Tengine graph does not validate ({len(errors)} error(s)); nothing written",
              file=sys.stderr)
        return 1
    try:
        with open(output, "wb") as f:
            f.write(data)
    except OSError as e:
        print(one_line(f"error: cannot write {output}: {e}"), file=sys.stderr)
        return 2
    nodes = result.model.graph.nodes
    computed = sum(1 for n in nodes if n.op_id not in (CONST_OP_ID, INPUT_OP_ID))
    print(f"{output}: {computed} Tengine nodes from {len(source.graph.node)} ai.onnx nodes ({len(nodes)} with "
          f"{sum(1 for n in nodes if n.op_id == CONST_OP_ID)} Const and {len(result.model.graph.inputs)} InputOp)")
    return 0
