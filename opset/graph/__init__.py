"""Build ONNX models with the typed op functions of `opset.ops`, or evaluate them eagerly on numpy arrays.

    from opset.ops import build, inputs
    from opset.ops.ai_onnx import v22 as op

    x = inputs.tensor("x", "float", ("N", 3, 32, 32))
    y = op.Relu(op.Conv(x, weights, kernel_shape=[3, 3]))
    model = build(inputs=[x], outputs={"y": y})

Every node is checked when it is written, by the model validator's node check: a bad attribute, an element type
the op does not take or a violated constraint raises `BuildError` naming the caller's line and the check id.
"""

from __future__ import annotations

from opset.graph import inputs
from opset.graph.check import BuildError
from opset.graph.eager import set_evaluator
from opset.graph.graph import constant
from opset.graph.model import build
from opset.graph.op import apply, op, op_ref
from opset.graph.value import Array, Node, V, Value

__all__ = ["Array", "BuildError", "Node", "V", "Value", "apply", "build", "constant", "inputs", "op", "op_ref",
           "set_evaluator"]
