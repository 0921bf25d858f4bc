"""A user's script with one mistake a line (marked `# mypy: <error code>`); mypy --strict must report each."""

from opset.ops import inputs
from opset.ops.ai_onnx import v22 as op

x = inputs.tensor("x", "float", ("N", 3, 8, 8))
op.AveragePool(x, kernel_shape=[2, 2], ceil_mode=2)  # mypy: arg-type
op.AveragePool(x, kernel_shape=[2, 2], ceil_mode=True)  # mypy: arg-type
op.AveragePool(x)  # mypy: call-arg
op.AveragePool(x, kernel_shape="22")  # mypy: arg-type
op.AveragePool(x, kernel_shap=[2, 2])  # mypy: call-arg
op.AveragePool(x, kernel_shape=[2, 2], auto_pad="SAME")  # mypy: arg-type
op.Conv(x, "w", kernel_shape=[3, 3])  # mypy: type-var
op.Gemm(x, x, 1.0)  # mypy: type-var
inputs.tensor("y", "flaot", (1,))  # mypy: arg-type
