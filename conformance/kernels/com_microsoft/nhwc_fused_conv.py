"""com.microsoft NhwcFusedConv: FusedConv with the channels last in X, Z and Y (W keeps Conv's layout)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.fused_conv import fused_conv_nchw
from conformance.kernels.com_microsoft.nhwc_conv import to_channels_first, to_channels_last
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "NhwcFusedConv", since=1)
def nhwc_fused_conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, z: np.ndarray | None, *,
                    activation: str | None, activation_params: list[float] | None, auto_pad: str,
                    dilations: list[int], group: int, kernel_shape: list[int], pads: list[int],
                    strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"NhwcFusedConv: X must be N x spatial... x C, got {x.shape}")
    window: dict[str, object] = {"auto_pad": auto_pad, "dilations": dilations, "group": group,
                                 "kernel_shape": kernel_shape, "pads": pads, "strides": strides}
    zc = None if z is None or z.ndim < 3 else to_channels_first(z)
    if z is not None and zc is None:
        raise ValueError(f"NhwcFusedConv: Z must have the output's shape, got {z.shape}")
    y = fused_conv_nchw("NhwcFusedConv", to_channels_first(x), weight, bias, zc, activation, activation_params,
                        window)
    return (np.ascontiguousarray(to_channels_last(y)).astype(x.dtype),)
