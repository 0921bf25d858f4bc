"""`opset convert --keep-types`: a converted model that keeps a `.tmfile`'s float16 and quantised constants as stored.

By default a converted model holds every constant as the float32 values it stands for (float16 widened, quantised
integers dequantised: `scale * (q - zero_point)`), which is what the view computes. With `--keep-types` each such
initializer is stored as the file stores it and a node before its first use gives the float32 values: a Cast for
float16, a DequantizeLinear (per tensor, or per output channel on axis 0) for int8, uint8 and int32 with their scales
(an int32 bias the calibration tool stored without scales takes input x weight scales, as the view does). The
model computes the same values; it is about as small as the file.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from opset.registry import Registry
from opset.tmfile.model import Model, Tensor
from opset.tmfile.onnx_view import ONNX_TYPES, OnnxView, is_quantised
from opset.tmfile.params import tengine_versions
from opset.tmfile.seen import FLOAT16, seen_tensors


def keep_stored_types(model: onnx.ModelProto, tmfile: Model, view: OnnxView, registry: Registry) -> onnx.ModelProto:
    """`model` (converted from `tmfile` through `view`) with its float16 and quantised constants as stored (those
    that reach it unchanged: a constant the conversion transposed or reshaped stays float32)."""
    graph = tmfile.graph
    seen = seen_tensors(graph, tengine_versions(registry))
    by_name = {view.tensor_names[t.index]: t for t in seen.tensors}
    initializers = list(model.graph.initializer)
    kept: list[onnx.TensorProto] = []
    front: list[onnx.NodeProto] = []
    for init in initializers:
        tensor = by_name.get(init.name)
        stored = _stored(tensor, graph.buffers[tensor.buffer].data) \
            if tensor is not None and 0 <= tensor.buffer < len(graph.buffers) else None
        if tensor is None or stored is None:
            kept.append(init)
            continue
        if tensor.data_type == FLOAT16 and not is_quantised(tensor):
            kept.append(numpy_helper.from_array(stored, f"{init.name}__stored"))
            front.append(helper.make_node("Cast", [f"{init.name}__stored"], [init.name], name=f"{init.name}/Cast",
                                          to=onnx.TensorProto.FLOAT))
        elif is_quantised(tensor):
            kept.extend(_quantised(init.name, tensor, stored))
            dequantize = helper.make_node("DequantizeLinear", [f"{init.name}__q", f"{init.name}__scale",
                                                                f"{init.name}__zero_point"], [init.name],
                                          name=f"{init.name}/DequantizeLinear")
            if len(tensor.quant_params) > 1:  # per output channel
                dequantize.attribute.append(helper.make_attribute("axis", 0))
            front.append(dequantize)
        else:
            kept.append(init)
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    nodes = front + list(model.graph.node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


def _stored(tensor: Tensor, data: bytes | None) -> np.ndarray | None:
    if data is None or tensor.data_type not in ONNX_TYPES or tensor.dims is None:
        return None
    dtype = helper.tensor_dtype_to_np_dtype(ONNX_TYPES[tensor.data_type]).newbyteorder("<")
    values = np.frombuffer(data, dtype=dtype)
    if values.size != int(np.prod(tensor.dims, dtype=np.int64)):
        return None
    return values.reshape(tensor.dims).astype(dtype.newbyteorder("="))


def _quantised(name: str, tensor: Tensor, stored: np.ndarray) -> list[onnx.TensorProto]:
    params = tensor.quant_params
    scale = np.array([q.scale for q in params], np.float32)
    zero = np.array([q.zero_point for q in params], stored.dtype)
    if len(params) == 1:
        scale, zero = scale.reshape(()), zero.reshape(())
    return [numpy_helper.from_array(stored, f"{name}__q"), numpy_helper.from_array(scale, f"{name}__scale"),
            numpy_helper.from_array(zero, f"{name}__zero_point")]
