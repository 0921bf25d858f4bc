"""How the view sees a graph's tensors where Tengine's own tools stored less than their meaning.

The view (`onnx_view`) gives a quantised tensor (int8, uint8 or int32 with quantisation parameters) the float values
it encodes. Three kinds of real files need more than each tensor's own record for that:

- Tengine 1.x's calibration tool stores a Convolution's int32 bias without quantisation parameters: its scale is
  the input's times the weight's (per output channel), its zero point 0, as every int8 convolution computes it.
  An op says which input is such a bias in `tengine.bias_scale` (`{bias: [input, weight]}`).
- Tengine 1.x's older quantisation tool stores int8 weights with their scales, and declares the activations int8
  without any: their scales were found at run time. In a graph with quantised constants, an int8 or uint8 value
  without quantisation parameters is seen as float, like the quantised ones around it.
- Tengine's float16 models keep some parameters in float32 (PReLU slopes, BatchNorm statistics) which its kernels
  read beside float16 data. A graph where a node reads a float32 constant beside a float16 value is seen in
  float32: its float16 values widened, which is what Tengine computes on a CPU without float16 arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from opset.model import OpVersion
from opset.tmfile.model import QuantParam, Subgraph, Tensor

FLOAT32, FLOAT16, INT8, UINT8, INT32 = 0, 1, 2, 3, 4
CONST_KIND = 2


@dataclass(frozen=True)
class Seen:
    """The graph's tensors as the view takes them, and whether float16 constants are widened to float32."""

    tensors: tuple[Tensor, ...]
    widen_float16: bool


def _has_scales(t: Tensor) -> bool:
    return bool(t.quant_params) and all(q.scale > 0 for q in t.quant_params)


def seen_tensors(graph: Subgraph, versions: Mapping[int, OpVersion], *, widen_float16: bool = False) -> Seen:
    """The tensors as the view takes them; `widen_float16` widens every float16 value, not only in mixed graphs."""
    tensors = list(graph.tensors)
    consts = {t for n in graph.nodes if versions.get(n.op_id) is not None and versions[n.op_id].name == "Const"
              for t in n.outputs if 0 <= t < len(tensors)}
    for node in graph.nodes:
        version = versions.get(node.op_id)
        if version is None or version.tengine is None or not version.tengine.bias_scale:
            continue
        by_param = {p.name: node.inputs[k] for k, p in enumerate(version.inputs) if k < len(node.inputs)}
        for bias_param, (in_param, w_param) in version.tengine.bias_scale.items():
            derived = _bias_params(tensors, by_param.get(bias_param), by_param.get(in_param), by_param.get(w_param))
            if derived is not None:
                b = by_param[bias_param]
                tensors[b] = replace(tensors[b], quant_params=derived)
    quantised_consts = any(tensors[t].data_type in (INT8, UINT8) and _has_scales(tensors[t]) for t in consts)
    # a float16 model that keeps some parameters in float32: a float32 constant read beside a float16 value
    widen = widen_float16 or any(_mixed(node.inputs, tensors, consts) for node in graph.nodes)
    for i, t in enumerate(tensors):
        if i in consts:
            continue
        if quantised_consts and t.data_type in (INT8, UINT8) and not t.quant_params:
            tensors[i] = replace(t, data_type=FLOAT32)  # an activation whose scale Tengine found at run time
        elif widen and t.data_type == FLOAT16:
            tensors[i] = replace(t, data_type=FLOAT32)
    return Seen(tuple(tensors), widen)


def _mixed(inputs: tuple[int, ...], tensors: list[Tensor], consts: set[int]) -> bool:
    """Whether a node reads a float32 constant beside a float16 value."""
    known = [t for t in inputs if 0 <= t < len(tensors)]
    return any(t in consts and tensors[t].data_type == FLOAT32 for t in known) and \
        any(tensors[t].data_type == FLOAT16 for t in known)


def _bias_params(tensors: list[Tensor], bias: int | None, data: int | None,
                 weight: int | None) -> tuple[QuantParam, ...] | None:
    """The quantisation parameters of an int32 bias stored without them: input scale x weight scale(s)."""
    if bias is None or data is None or weight is None:
        return None
    if not all(0 <= i < len(tensors) for i in (bias, data, weight)):
        return None
    b, x, w = tensors[bias], tensors[data], tensors[weight]
    if b.data_type != INT32 or b.quant_params or len(x.quant_params) != 1 or not _has_scales(w) \
            or not _has_scales(x):
        return None
    return tuple(QuantParam(0, x.quant_params[0].scale * q.scale, 32) for q in w.quant_params)
