"""com.microsoft GatedAdd: output = X + T(Y * g), g one value per row of X.

Plain mode (no gate_weight): g = gate[..., 0], used as it is. Projected mode: g = sigmoid(gate . gate_weight),
the projection and the sigmoid in float32, rounded to bfloat16 after the projection, the sigmoid, the product and
the sum, as onnxruntime documents it (only its CUDA provider implements this mode, for bfloat16 only; the kernel
rounds through bfloat16 whatever T is, so float and float16 follow the documented bfloat16 arithmetic). The
rounding to T between product and sum is the op's meaning, so the kernel takes T as it is (exact_types)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from conformance.kernels.com_microsoft._fused import sigmoid
from conformance.kernels.registry import kernel

BF16 = np.dtype(ml_dtypes.bfloat16)


def _bf16(v: np.ndarray) -> np.ndarray:
    return np.asarray(v).astype(BF16).astype(np.float32)


@kernel("com.microsoft", "GatedAdd", since=1, exact_types=True)
def gated_add(x: np.ndarray, y: np.ndarray, gate: np.ndarray, gate_weight: np.ndarray | None) -> tuple[np.ndarray, ...]:
    if x.ndim < 1 or y.shape != x.shape:
        raise ValueError(f"GatedAdd: Y {y.shape} must have X's shape {x.shape} (rank 1 or more)")
    if gate.ndim != x.ndim or gate.shape[:-1] != x.shape[:-1]:
        raise ValueError(f"GatedAdd: gate {gate.shape} must have X's leading dims {x.shape[:-1]}")
    t = x.dtype
    xf, yf, gf = (v.astype(np.float32) for v in (x, y, gate))
    if gate_weight is None:
        if gate.shape[-1] != 1:
            raise ValueError(f"GatedAdd: without gate_weight, gate's last dim must be 1, got {gate.shape}")
        product = (yf * gf).astype(t).astype(np.float32)
        return (np.asarray(xf + product).astype(t),)
    if gate_weight.shape != (gate.shape[-1], 1):
        raise ValueError(f"GatedAdd: gate_weight must have shape ({gate.shape[-1]}, 1), got {gate_weight.shape}")
    p = _bf16(np.matmul(gf, gate_weight.astype(np.float32)))
    s = _bf16(sigmoid(p))
    product = _bf16(yf * s)
    return (_bf16(xf + product).astype(t),)
