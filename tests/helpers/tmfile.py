"""What the `.tmfile` tests share: where the real models are, and an independent minimal walk of a TM2 file.

The models: `$OPSET_TMFILE_DIR`, else `../shared/data/tmfile` beside the repo. The walk (`walk`) is written
from tm2_format.h alone, without `opset.tmfile`, so the reader's numbers are checked against a second reading
instead of against themselves: counts, the subgraph's input/output nodes and the op ids.
"""

from __future__ import annotations

import os
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def tmfile_dir() -> Path:
    env = os.environ.get("OPSET_TMFILE_DIR")
    return Path(env) if env else ROOT.parent / "shared" / "data" / "tmfile"


SHARED = sorted(tmfile_dir().glob("*.tmfile"))
SHARED_IDS = [p.name for p in SHARED]


@dataclass(frozen=True)
class Walked:
    nodes: int
    tensors: int
    buffers: int
    inputs: list[int]
    outputs: list[int]
    op_ids: Counter[int]


def _u32(data: bytes, at: int) -> int:
    value: int = struct.unpack_from("<I", data, at)[0]
    return value


def _vector(data: bytes, at: int) -> list[int]:
    count = _u32(data, at)
    return list(struct.unpack_from(f"<{count}I", data, at + 4))


def walk(data: bytes) -> Walked:
    root = _u32(data, 8)  # TM2_Header: 3 x uint16 versions, 2 padding bytes, root offset
    subgraph = _vector(data, _u32(data, root + 8))[0]  # TM2_Model: orig_format, sub_format, subgraphs, name
    # TM2_Subgraph: id, graph layout, model layout, inputs, outputs, nodes, tensors, buffers, ...
    inputs, outputs, nodes, tensors, buffers = struct.unpack_from("<5I", data, subgraph + 12)
    node_offsets = _vector(data, nodes)
    op_ids: Counter[int] = Counter()
    for node in node_offsets:
        operator = _u32(data, node + 12)  # TM2_Node: id, inputs, outputs, operator, ...
        op_ids[_u32(data, operator + 4)] += 1  # TM2_Operator: op_ver, operator_type, param
    return Walked(len(node_offsets), len(_vector(data, tensors)), len(_vector(data, buffers)),
                  _vector(data, inputs), _vector(data, outputs), op_ids)


# ---------------------------------------------------------------------------------------- one-node models

_TENGINE_TYPES = {"float32": 0, "float16": 1, "int8": 2, "uint8": 3, "int32": 4, "int64": 4, "int16": 5}


def one_node_model(op: str, attributes: dict[str, Any], inputs: Sequence[Any], *, graph_inputs: int = 1,
                   layout: int = 0) -> tuple[Any, dict[str, Any]]:
    """A `.tmfile` Model of one Tengine `op` node (its attributes as parameters) and the feeds to run it: the first
    `graph_inputs` arrays are graph inputs (InputOp nodes, fed by name), the others constants (an int64 array is
    stored as int32, as Tengine's converters store integer constants); None leaves an optional input out. Test-only
    keys of `attributes`: `_outputs` (how many outputs a variadic output has), `_out_types` (Tengine type codes of
    the outputs; default: the output's fixed type, else the first input's)."""
    from opset.tmfile.model import INPUT_OP_ID, Buffer, Model, Node, Subgraph, Tensor
    from opset.tmfile.params import param_structs, tengine_versions
    from tests.helpers.basics import registry as _registry

    versions = {v.name: v for v in tengine_versions(_registry()).values()}
    version = versions[op]
    assert version.tengine is not None
    by_attribute = {f.attribute or f.name: f.name for f in version.tengine.layout}
    params = {by_attribute[k]: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in attributes.items()
              if not k.startswith("_")}
    op_id = version.tengine.op_id
    tensors, nodes, buffers, refs = [], [], [], []
    feeds: dict[str, Any] = {}
    for k, x in enumerate(inputs):
        if x is None:
            continue
        x = np.asarray(x)
        stored = x.astype(np.int32) if x.dtype == np.int64 else x
        t = len(tensors)
        name = f"in{k}"
        if k < graph_inputs:
            tensors.append(Tensor(t, name, 0, tuple(x.shape), layout, 3, _TENGINE_TYPES[str(x.dtype)]))
            nodes.append(Node(len(nodes), name, INPUT_OP_ID, 1, None, {}, None, (), (t,)))
            feeds[name] = x
        else:
            b = len(buffers)
            data = stored.astype(stored.dtype.newbyteorder("<")).tobytes()
            buffers.append(Buffer(b, len(data), data))
            tensors.append(Tensor(t, name, b, tuple(x.shape), layout, 2, _TENGINE_TYPES[str(stored.dtype)]))
            nodes.append(Node(len(nodes), name, 4, 1, "Const", {}, None, (), (t,)))
        refs.append(t)
    outputs = len(version.outputs) if not version.outputs[-1].variadic else int(attributes.get("_outputs", 1))
    first = next((np.asarray(x) for x in inputs if x is not None), np.zeros(0, np.float32))
    fixed = {"tensor(int32)": 4, "tensor(float)": 0}
    out_types = [fixed.get(version.outputs[min(k, len(version.outputs) - 1)].type,
                           _TENGINE_TYPES.get(str(first.dtype), 0)) for k in range(outputs)]
    out_types = list(attributes.get("_out_types", out_types))
    outs = []
    for k in range(outputs):
        outs.append(len(tensors))
        tensors.append(Tensor(len(tensors), f"out{k}", 0, None, layout, 1, out_types[k]))
    nodes.append(Node(len(nodes), "op", op_id, 1, op, params, None, tuple(refs), tuple(outs)))
    assert op_id in param_structs(_registry())
    graph = Subgraph(0, 0, layout, layout, tuple(i for i, n in enumerate(nodes) if n.op_id == INPUT_OP_ID),
                     (len(nodes) - 1,), tuple(nodes), tuple(tensors), tuple(buffers), "one")
    return Model((2, 0, 0), 2, 0, None, (graph,)), feeds


# ---------------------------------------------------------------------------------------- an independent reading

# Parameter structs of the ops a converted vision model uses, written from tm2_format.h (not from the registry):
# field names and C types in binary order (all 4 bytes wide, so no padding between them).
TM2_STRUCTS: dict[int, list[tuple[str, str]]] = {
    5: [(n, "i") for n in ("kernel_h", "kernel_w", "stride_h", "stride_w", "dilation_h", "dilation_w",
                           "input_channel", "output_channel", "group", "activation", "pad_h0", "pad_w0", "pad_h1",
                           "pad_w1")],
    16: [(n, "i") for n in ("alg", "kernel_h", "kernel_w", "stride_h", "stride_w", "global", "caffe_flavor",
                            "pad_h0", "pad_w0", "pad_h1", "pad_w1")],
    11: [("num_output", "i")],
    20: [("negative_slope", "f")],
    9: [("type", "I"), ("caffe_flavor", "i"), ("shift", "f"), ("power", "f"), ("scale", "f")],
    3: [("axis", "i")],
    28: [("axis", "i")],
    10: [("axis", "i"), ("end_axis", "i")],
}


def independent_reading(data: bytes) -> dict[str, Any]:
    """What a `.tmfile` holds, read from tm2_format.h alone: nodes (op id, name, input and output tensor indices, the
    scalar fields of the parameter structs above), tensors (name, dims, type, kind) and buffers (size, data or not)."""

    def u32(at: int) -> int:
        return _u32(data, at)

    def string(at: int) -> str | None:
        if at == 0:
            return None
        size, where = struct.unpack_from("<II", data, at)
        return data[where:where + size].rstrip(b"\0").decode("utf-8", "backslashreplace")

    def vector(at: int) -> list[int]:
        return _vector(data, at) if at else []

    root = u32(8)
    subgraph = _vector(data, u32(root + 8))[0]
    _sg_id, layout, _model_layout, inputs, outputs, nodes, tensors, buffers, name = \
        struct.unpack_from("<IiiIIIIII", data, subgraph)
    node_list = []
    for n in _vector(data, nodes):
        _id, ins, outs, op, s_name = struct.unpack_from("<IIIII", data, n)
        _ver, op_id, param = struct.unpack_from("<III", data, op)
        fields = TM2_STRUCTS.get(op_id, [])
        values = struct.unpack_from("<" + "".join(c for _, c in fields), data, param) if param and fields else ()
        node_list.append({"name": string(s_name), "op_id": op_id, "inputs": vector(ins), "outputs": vector(outs),
                          "params": {f: v for (f, _), v in zip(fields, values, strict=True)}})
    tensor_list = []
    for t in _vector(data, tensors):
        _id, buffer, dims, s_name, _quant, _layout, kind, dtype = struct.unpack_from("<IIIIIiii", data, t)
        dim_values = list(struct.unpack_from(f"<{u32(dims)}i", data, dims + 4)) if dims else None
        tensor_list.append({"name": string(s_name), "dims": dim_values, "type": dtype, "kind": kind,
                            "buffer": buffer})
    buffer_list = []
    for b in _vector(data, buffers):
        size, where = struct.unpack_from("<II", data, b)
        buffer_list.append({"size": size, "data": where != 0})
    return {"layout": layout, "name": string(name), "inputs": _vector(data, inputs), "outputs": _vector(data, outputs),
            "nodes": node_list, "tensors": tensor_list, "buffers": buffer_list}


# ---------------------------------------------------------------------------------------- weights

def with_random_weights(model: Any, seed: int) -> Any:
    """The model with random float weights in every constant buffer the file ships empty (OAID's benchmark files
    store the graph and the sizes only), so it can run on every side: weights of two or more dims scaled by their
    fan-in so activations keep their scale through deep nets, vectors (biases, BatchNormalization's statistics)
    in [0.5, 1.5] so variances stay positive."""
    from dataclasses import replace

    from opset.tmfile.onnx_view import ELEMENT_SIZES

    rng = np.random.default_rng(seed)
    graph = model.graph
    consts = {t.buffer: t for t in graph.tensors if t.kind == 2}
    buffers = []
    for b in graph.buffers:
        t = consts.get(b.index)
        if b.data is None and t is not None and t.data_type in (0, 1):
            count = b.size // ELEMENT_SIZES[t.data_type]
            dims = [d for d in (t.dims or [count]) if d != 1] or [count]
            if len(dims) >= 2:
                values = rng.standard_normal(count) / np.sqrt(count // dims[0])
            else:
                values = rng.uniform(0.5, 1.5, count)
            buffers.append(replace(b, data=values.astype("<f4" if t.data_type == 0 else "<f2").tobytes()))
        else:
            buffers.append(b)
    return replace(model, subgraphs=(replace(graph, buffers=tuple(buffers)), *model.subgraphs[1:]))
