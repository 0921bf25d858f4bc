"""com.microsoft ConvTransposeWithDynamicPads: ai.onnx ConvTranspose whose pads come from the int64 input Pads
(begins then ends, 2 * spatial rank values) instead of an attribute. onnxruntime's schema marks Pads optional but
its kernel requires it, and so does this one."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.conv_transpose import conv_transpose
from conformance.kernels.registry import kernel


@kernel("com.microsoft", "ConvTransposeWithDynamicPads", since=1)
def conv_transpose_with_dynamic_pads(x: np.ndarray, weight: np.ndarray, pads: np.ndarray | None,
                                     bias: np.ndarray | None, *, auto_pad: str, dilations: list[int], group: int,
                                     kernel_shape: list[int], output_padding: list[int],
                                     strides: list[int]) -> tuple[np.ndarray, ...]:
    r = x.ndim - 2
    if pads is None:  # optional in onnxruntime's schema only (convtransposewithdynamicpads_c5)
        raise ValueError("ConvTransposeWithDynamicPads: onnxruntime's kernel requires the Pads input")
    if pads.ndim != 1 or pads.shape[0] != 2 * r:
        raise ValueError(f"ConvTransposeWithDynamicPads: Pads must hold {2 * r} values, got shape {pads.shape}")
    given = [int(p) for p in pads]
    return conv_transpose(x, weight, bias, auto_pad=auto_pad, dilations=dilations, group=group,
                          kernel_shape=kernel_shape, output_padding=output_padding, output_shape=None, pads=given,
                          strides=strides)
