"""An oracle from the operator's own definition: its onnx function body (static or context-dependent), run by
onnx.reference as a model-local function, so the op's dedicated reference implementation is not used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.defs
from onnx import helper


def function_body_outputs(op: str, opset: int, inputs: Sequence[np.ndarray | None], attrs: Mapping[str, Any],
                          n_out: int) -> list[np.ndarray]:
    """The outputs of ai.onnx `op` at `opset` computed through its function body."""
    from onnx.reference import ReferenceEvaluator

    schema = onnx.defs.get_schema(op, opset, "")
    names = [f"in{i}" if x is not None else "" for i, x in enumerate(inputs)]
    outs = [f"out{k}" for k in range(n_out)]
    node = helper.make_node(op, names, outs, **attrs)
    if schema.has_context_dependent_function:
        types = [helper.make_tensor_type_proto(helper.np_dtype_to_tensor_dtype(x.dtype), x.shape).SerializeToString()
                 if x is not None else onnx.TypeProto().SerializeToString() for x in inputs]
        raw = schema.get_context_dependent_function(node.SerializeToString(), types)
    elif schema.has_function:
        raw = schema.get_function_with_opset_version(opset)
    else:
        raise LookupError(f"{op}-{opset} has no function body")
    body = onnx.FunctionProto()
    body.ParseFromString(raw)
    body.domain, body.name = "body", op
    call = helper.make_node(op, names + [""] * (len(body.input) - len(names)), outs, domain="body", **attrs)
    graph_inputs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
                    for n, x in zip(names, inputs, strict=True) if x is not None]
    graph = helper.make_graph([call], "g", graph_inputs, [onnx.ValueInfoProto(name=o) for o in outs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset), helper.make_opsetid("body", 1)],
                              functions=[body])
    feeds = {n: x for n, x in zip(names, inputs, strict=True) if x is not None}
    return [np.asarray(x) for x in ReferenceEvaluator(model).run(None, feeds)]
