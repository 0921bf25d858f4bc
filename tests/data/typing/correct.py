"""A user's script that mypy --strict accepts: graph values in, values out; arrays in, arrays out."""

import numpy as np
import numpy.typing as npt
import onnx

from opset.graph import Value
from opset.ops import build, inputs
from opset.ops.ai_onnx import v22 as op
from opset.ops.com_microsoft import v1 as ms

x = inputs.tensor("x", "float", ("N", 3, 8, 8))
w = np.zeros((4, 3, 3, 3), np.float32)
y: Value = op.AveragePool(op.Relu(op.Conv(x, w, kernel_shape=[3, 3])), kernel_shape=[2, 2], ceil_mode=1)
values, indices = op.TopK(x, np.array([2], np.int64), axis=-1)
parts: tuple[Value, ...] = op.Split(x, np.array([1, 2], np.int64), axis=1, n_outputs=2)
g: Value = ms.FusedGemm(inputs.tensor("a", "float", (2, 4)), np.zeros((4, 5), np.float32), activation="Relu")
model: onnx.ModelProto = build(inputs=[x], outputs={"y": y})
eager: npt.NDArray[np.float32] = op.Relu(np.zeros((2, 2), np.float32))
