"""com.microsoft FusedConv: Conv (ai.onnx's kernel, in the work dtype), plus Z, then the MLAS activation; one
rounding back to the input's type at the end."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.ai_onnx.conv import conv
from conformance.kernels.com_microsoft._fused import mlas_activation
from conformance.kernels.registry import kernel


def fused_conv_nchw(op: str, x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, z: np.ndarray | None,
                    activation: str | None, activation_params: list[float] | None, window: dict[str, object]
                    ) -> np.ndarray:
    """activation(Conv(X, W, B) + Z) in channels-first layout, in the work dtype (not rounded back)."""
    wt = work_dtype(x)
    (y,) = conv(x.astype(wt), weight.astype(wt), None if bias is None else bias.astype(wt), **window)
    if z is not None:
        if z.shape != y.shape:
            raise ValueError(f"{op}: Z must have the output's shape {y.shape}, got {z.shape}")
        y = y + z.astype(wt)
    return mlas_activation(op, y, activation, activation_params)


@kernel("com.microsoft", "FusedConv", since=1)
def fused_conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, z: np.ndarray | None, *,
               activation: str | None, activation_params: list[float] | None, auto_pad: str, dilations: list[int],
               group: int, kernel_shape: list[int], pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    window: dict[str, object] = {"auto_pad": auto_pad, "dilations": dilations, "group": group,
                                 "kernel_shape": kernel_shape, "pads": pads, "strides": strides}
    y = fused_conv_nchw("FusedConv", x, weight, bias, z, activation, activation_params, window)
    return (y.astype(x.dtype),)
