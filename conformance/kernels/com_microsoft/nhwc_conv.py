"""com.microsoft NhwcConv: Conv with the channels last in X and Y (W keeps Conv's layout)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.com_microsoft.fused_conv import fused_conv_nchw
from conformance.kernels.registry import kernel


def to_channels_first(x: np.ndarray) -> np.ndarray:
    return np.moveaxis(x, -1, 1)


def to_channels_last(y: np.ndarray) -> np.ndarray:
    return np.moveaxis(y, 1, -1)


@kernel("com.microsoft", "NhwcConv", since=1)
def nhwc_conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None, *, auto_pad: str, dilations: list[int],
              group: int, kernel_shape: list[int], pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim < 3:
        raise ValueError(f"NhwcConv: X must be N x spatial... x C, got {x.shape}")
    window: dict[str, object] = {"auto_pad": auto_pad, "dilations": dilations, "group": group,
                                 "kernel_shape": kernel_shape, "pads": pads, "strides": strides}
    y = fused_conv_nchw("NhwcConv", to_channels_first(x), weight, bias, None, None, None, window)
    return (np.ascontiguousarray(to_channels_last(y)).astype(x.dtype),)
