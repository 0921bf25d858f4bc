"""A `.tmfile` model seen as an ONNX ModelProto in the `tengine` domain, so the validator, the model runner and
the converter to ai.onnx work on it unchanged.

One ONNX node per Tengine compute node: `op_type` is the registry's op name, the domain the registry's node
domain of `tengine`, the attributes the decoded parameter block by attribute name (a layout field's `attribute`,
else its name). InputOp nodes (TM2 op id 12, which carries nothing but its output tensor) become graph inputs;
Const nodes become initializers with the buffer's data, or zeros of the declared dims when the buffer holds none
(the benchmark graphs: Tengine fills them with zeros on load). A quantised tensor (int8, uint8 or int32 with
quantisation parameters) is seen as the float values it encodes, so a uint8 model is the real-valued computation
its integers approximate: it validates against the ops' float types, and `opset run` computes it in float (its
outputs differ from Tengine's integer kernels by their rounding). Every tensor with declared dims becomes a
value_info, so the validator compares them with the shapes the registry's formulas propagate. The model's
Tengine layouts are kept in `metadata_props` (`tengine.graph_layout`, `tengine.model_layout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper

from opset.formula import FormulaError
from opset.model import OpVersion
from opset.registry import Registry
from opset.tmfile.model import DATA_TYPES, INPUT_OP_ID, LAYOUTS, Model, Node, Subgraph, Tensor
from opset.tmfile.nhwc import NHWC, NhwcView
from opset.tmfile.node_params import attribute_values
from opset.tmfile.params import tengine_versions
from opset.tmfile.seen import seen_tensors
from opset.tmfile.text import clean_text

TENGINE_OPSET = 1

# Tengine's element types (`TENGINE_DT_*`, named in model.DATA_TYPES) as ONNX element types, and their sizes
ONNX_TYPES: dict[int, int] = {k: helper.np_dtype_to_tensor_dtype(np.dtype(name)) for k, name in DATA_TYPES.items()}
ELEMENT_SIZES: dict[int, int] = {k: np.dtype(name).itemsize for k, name in DATA_TYPES.items()}


class ViewError(Exception):
    """The model cannot be seen as ONNX (a reference out of range, an unknown op): the message says where."""


@dataclass(frozen=True)
class OnnxView:
    """The ONNX model and, per ONNX node, the index of the Tengine node it came from."""

    model: onnx.ModelProto
    node_indices: tuple[int, ...]
    tensor_names: tuple[str, ...]  # the ONNX value name of each Tengine tensor, by tensor index


def node_place(node: Node) -> str:
    """`node 12 'Conv_0' (Convolution)`: how messages name a Tengine node."""
    name = f" '{clean_text(node.name)}'" if node.name else ""
    op = node.op_name or f"op id {node.op_id}"
    return f"node {node.index}{name} ({op})"


def tensor_names(graph: Subgraph) -> tuple[str, ...]:
    """A unique ONNX value name for each tensor: its own name, else (or when taken) `tensor_<index>`."""
    seen: set[str] = set()
    names = []
    for t in graph.tensors:
        own = clean_text(t.name)
        name = own if own and own not in seen else f"tensor_{t.index}"
        while name in seen:
            name = f"{name}_"
        seen.add(name)
        names.append(name)
    return tuple(names)


def element_count(dims: tuple[int, ...]) -> int:
    return int(np.prod(dims, dtype=np.int64)) if dims else 1


_QUANTISED_TYPES = (2, 3, 4)  # int8, uint8 and int32 (a quantised bias) carry values through quantisation parameters


def is_quantised(tensor: Tensor) -> bool:
    """Whether the tensor stores integers that stand for real values, `scale * (q - zero_point)`: an int8, uint8 or
    int32 tensor with quantisation parameters of positive scale (a shape tensor has none)."""
    return (tensor.data_type in _QUANTISED_TYPES and bool(tensor.quant_params)
            and all(q.scale > 0 for q in tensor.quant_params))


def view_type(tensor: Tensor) -> int:
    """The ONNX element type the view gives a tensor: a quantised one is seen as the float values it encodes, so
    a uint8 model validates, runs and converts as the real-valued computation its integers approximate."""
    return TensorProto.FLOAT if is_quantised(tensor) else ONNX_TYPES.get(tensor.data_type, TensorProto.UNDEFINED)


def const_array(tensor: Tensor, data: bytes | None) -> np.ndarray:
    """A Const tensor's value: the buffer's bytes read as the tensor's type and dims, or zeros without data; a
    quantised tensor's integers dequantised (one parameter for the tensor or one per index of its first dim)."""
    if tensor.data_type not in ONNX_TYPES:
        raise ViewError(f"tensor {tensor.index}: unknown data type {tensor.data_type}")
    dtype = helper.tensor_dtype_to_np_dtype(ONNX_TYPES[tensor.data_type]).newbyteorder("<")
    dims = tensor.dims or ()
    if data is None:
        return np.zeros(dims, dtype=np.float32 if is_quantised(tensor) else dtype)
    expected = element_count(dims) * ELEMENT_SIZES[tensor.data_type]
    if len(data) != expected:
        raise ViewError(f"tensor {tensor.index}: buffer of {len(data)} bytes for dims {list(dims)} ({expected} bytes)")
    stored = np.frombuffer(data, dtype=dtype).reshape(dims).astype(dtype.newbyteorder("="))
    return _dequantised(tensor, stored) if is_quantised(tensor) else stored


def _dequantised(tensor: Tensor, stored: np.ndarray) -> np.ndarray:
    params = tensor.quant_params
    scale: np.ndarray
    zero: np.ndarray
    if len(params) == 1:
        scale, zero = np.array(params[0].scale, np.float64), np.array(params[0].zero_point, np.float64)
    elif stored.ndim >= 1 and len(params) == stored.shape[0]:
        channel = (len(params),) + (1,) * (stored.ndim - 1)
        scale = np.array([q.scale for q in params], np.float64).reshape(channel)
        zero = np.array([q.zero_point for q in params], np.float64).reshape(channel)
    else:
        raise ViewError(f"tensor {tensor.index}: {len(params)} quantisation parameters for dims "
                        f"{list(stored.shape)} (one, or one per index of the first dim)")
    return ((stored.astype(np.float64) - zero) * scale).astype(np.float32)


def node_attributes(node: Node, version: OpVersion) -> list[onnx.AttributeProto]:
    """The decoded parameter block as ONNX attributes, typed as the registry's attributes are."""
    try:
        values = attribute_values(node.params, node.older_layout, version)
    except FormulaError as e:
        raise ViewError(f"{node_place(node)}: the older struct's fields do not give its attributes ({e})") from None
    out = []
    for name, value in values.items():  # an absent vector or string is left out: the attribute's default applies
        attr_type = version.attributes[name].type
        out.append(helper.make_attribute(name, _typed(value, attr_type), attr_type=_PROTO_TYPES.get(attr_type)))
    return out


_PROTO_TYPES = {"int": onnx.AttributeProto.INT, "float": onnx.AttributeProto.FLOAT,
                "string": onnx.AttributeProto.STRING, "ints": onnx.AttributeProto.INTS,
                "floats": onnx.AttributeProto.FLOATS}


def _typed(value: Any, attr_type: str) -> Any:
    if attr_type == "int":
        return int(value)
    if attr_type == "float":
        return float(value)
    if attr_type == "ints":
        return [int(v) for v in value]
    if attr_type == "floats":
        return [float(v) for v in value]
    if isinstance(value, str):
        return clean_text(value)
    return value


def to_onnx(model: Model, registry: Registry, *, zero_fill: bool = True, widen_float16: bool = False) -> OnnxView:
    """The model's first subgraph as a tengine-domain ONNX model; ViewError when a reference does not resolve.

    Without `zero_fill` a constant whose buffer holds no data becomes a graph input of its declared type and dims
    instead of a zero initializer: all validation needs, without allocating what a benchmark graph's weights
    would take (vgg16's are 500 MB). With `widen_float16` every float16 value is seen as float32 (the converter's
    default: ONNX models compute in float32 unless asked to keep the stored types)."""
    graph = model.graph
    names = tensor_names(graph)
    versions = tengine_versions(registry)
    node_domain = registry.node_domain("tengine")
    seen = seen_tensors(graph, versions, widen_float16=widen_float16)
    tensors = seen.tensors

    def tensor(index: int, node: Node) -> Tensor:
        if not 0 <= index < len(tensors):
            raise ViewError(f"{node_place(node)}: tensor {index} out of range ({len(tensors)} tensors)")
        return tensors[index]

    inputs: list[onnx.ValueInfoProto] = []
    initializers: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []
    indices: list[int] = []
    zero_bytes = 0  # what the data-less constants take once zero-filled, bounded by MAX_ZERO_FILL
    nhwc = NhwcView(node_domain, set(names), {names[t.index]: len(t.dims) for t in graph.tensors
                                              if t.dims is not None}) if graph.graph_layout == NHWC else None
    for node in graph.nodes:
        outs = [tensor(i, node) for i in node.outputs]
        if node.op_id == INPUT_OP_ID:
            inputs.extend(_value_info(names[t.index], t) for t in outs)
            continue
        version = versions.get(node.op_id)
        if version is None:
            raise ViewError(f"{node_place(node)}: op id {node.op_id} is not a Tengine op of the registry")
        if version.name == "Const":
            for t in outs:
                if not 0 <= t.buffer < len(graph.buffers):
                    raise ViewError(f"{node_place(node)}: tensor {t.index} names buffer {t.buffer} "
                                    f"({len(graph.buffers)} buffers)")
                buffer = graph.buffers[t.buffer]
                if buffer.data is None and not zero_fill:
                    inputs.append(_value_info(names[t.index], t))
                    continue
                if buffer.data is None:
                    zero_bytes += _zero_fill_size(t, buffer.size, node)
                    if zero_bytes > MAX_ZERO_FILL:
                        raise ViewError(f"the constants without data would take more than {MAX_ZERO_FILL} bytes "
                                        "of zeros")
                value = const_array(t, buffer.data)
                if seen.widen_float16 and value.dtype == np.float16:
                    value = value.astype(np.float32)
                initializers.append(onnx.numpy_helper.from_array(value, names[t.index]))
            continue
        ins = [names[tensor(i, node).index] for i in node.inputs]
        out_names = [names[t.index] for t in outs]
        node_name = clean_text(node.name) or f"node_{node.index}"
        before: list[onnx.NodeProto] = []
        after: list[onnx.NodeProto] = []
        if nhwc is not None and version.tengine is not None and version.tengine.nhwc:
            ins, out_names, before, after = nhwc.wrap(version, node_name, ins, out_names)
        compute = helper.make_node(version.name, ins, out_names, name=node_name, domain=node_domain)
        compute.attribute.extend(node_attributes(node, version))
        for made in (*before, compute, *after):  # every node of the view names the Tengine node it stands for
            nodes.append(made)
            indices.append(node.index)
    produced_by = {t: node for node in graph.nodes for t in node.outputs}
    outputs: list[onnx.ValueInfoProto] = []
    for k in graph.outputs:
        if not 0 <= k < len(graph.nodes):
            raise ViewError(f"graph output node {k} out of range ({len(graph.nodes)} nodes)")
        outputs.extend(_value_info(names[t], tensors[t]) for t in graph.nodes[k].outputs
                       if 0 <= t < len(tensors))
    given = {vi.name for vi in inputs} | {t.name for t in initializers} | {vi.name for vi in outputs}
    value_info = [_value_info(names[t.index], t) for t in tensors
                  if t.dims is not None and names[t.index] not in given and t.index in produced_by]
    onnx_graph = helper.make_graph(nodes, clean_text(graph.name or model.name) or "tmfile", inputs, outputs,
                                   initializers,
                                   value_info=value_info)
    proto = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid(node_domain, TENGINE_OPSET)],
                              producer_name="opset.tmfile")
    helper.set_model_props(proto, {"tengine.graph_layout": LAYOUTS.get(graph.graph_layout, str(graph.graph_layout)),
                                   "tengine.model_layout": LAYOUTS.get(graph.model_layout, str(graph.model_layout)),
                                   "tengine.format_version": ".".join(map(str, model.version))})
    return OnnxView(proto, tuple(indices), names)


MAX_ZERO_FILL = 1 << 30  # bytes of zeros the view allocates for data-less buffers (vgg16's benchmark needs 553 MB)


def _zero_fill_size(tensor: Tensor, stored_size: int, node: Node) -> int:
    """The bytes a data-less constant takes, checked against its buffer's size field before anything is
    allocated (a file of a few bytes can declare any dims)."""
    dims = tensor.dims or ()
    if any(d < 0 for d in dims) or tensor.data_type not in ELEMENT_SIZES:
        raise ViewError(f"{node_place(node)}: tensor {tensor.index} has dims {list(dims)} of type {tensor.data_type}")
    size = element_count(dims) * ELEMENT_SIZES[tensor.data_type]
    if size != stored_size:
        raise ViewError(f"{node_place(node)}: tensor {tensor.index} {list(dims)} needs {size} bytes; its buffer says "
                        f"{stored_size}")
    if size > MAX_ZERO_FILL:
        raise ViewError(f"{node_place(node)}: tensor {tensor.index} would take {size} bytes of zeros (more than "
                        f"{MAX_ZERO_FILL})")
    return size


def _value_info(name: str, tensor: Tensor) -> onnx.ValueInfoProto:
    """A declared value; a negative dim (a TensorFlow placeholder's -1 batch) is a dim nobody knows."""
    dims: list[int | str] | None = None
    if tensor.dims is not None:
        dims = [d if d >= 0 else f"{name}_dim{i}" for i, d in enumerate(tensor.dims)]
    return helper.make_tensor_value_info(name, view_type(tensor), dims)
