"""com.microsoft.nchwc Conv: ai.onnx Conv (2-d kernel) on the blocked layout, + B, + Sum, then the fused activation.

Which layout X and W are stored in follows MLAS's choice of algorithm by the per-group channel counts (the YAML's
doc): blocked X and an OIHWBiBo weight per group when a group has at least a block of input channels, blocked X and a
[M/b, KH, KW, b] weight for a depthwise convolution, plain NCHW X and an OIHWBo weight otherwise.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx.conv import conv as onnx_conv
from conformance.kernels.com_microsoft_nchwc._nchwc import BLOCK, blocks_of, to_blocks, unblock
from conformance.kernels.registry import kernel


def _logical_weight(w: np.ndarray, group: int, blocked_input: bool) -> np.ndarray:
    """The [M, Cg, KH, KW] weight of ai.onnx Conv that the stored weight stands for."""
    m, cg, kh, kw = w.shape
    mg, b = m // group, BLOCK
    if not blocked_input:  # OIHWBo: [M/b, C, KH, KW, b]
        return w.reshape(m // b, cg, kh, kw, b).transpose(0, 4, 1, 2, 3).reshape(m, cg, kh, kw)
    if cg == 1 and mg == 1:  # depthwise: [M/b, KH, KW, b]
        return w.reshape(m // b, kh, kw, b).transpose(0, 3, 1, 2).reshape(m, 1, kh, kw)
    # OIHWBiBo per group: [group, Mg/b, Cg/b, KH, KW, b_in, b_out]
    stored = w.reshape(group, mg // b, cg // b, kh, kw, b, b)
    return stored.transpose(0, 1, 6, 2, 5, 3, 4).reshape(m, cg, kh, kw)


def _activate(y: np.ndarray, activation: str | None, params: list[float] | None) -> np.ndarray:
    p = [np.float32(v) for v in params or []]
    if activation is None:
        return y
    if activation == "Relu":
        return np.asarray(np.maximum(y, np.float32(0)))
    if activation == "Tanh":
        return np.asarray(np.tanh(y))
    if activation == "Sigmoid":
        return np.asarray(np.float32(1) / (np.float32(1) + np.exp(-y)))
    need = {"LeakyRelu": 1, "Clip": 2, "HardSigmoid": 2}.get(activation)
    if need is None:
        raise ValueError(f"Conv: unsupported activation {activation!r}")
    if len(p) != need:
        raise ValueError(f"Conv: activation {activation} takes {need} activation_params, got {params}")
    if activation == "LeakyRelu":
        return np.asarray(np.where(y >= 0, y, p[0] * y))
    if activation == "Clip":
        return np.asarray(np.minimum(np.maximum(y, p[0]), p[1]))
    return np.asarray(np.clip(p[0] * y + p[1], np.float32(0), np.float32(1)))


@kernel("com.microsoft.nchwc", "Conv", since=1)
def conv(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, total: np.ndarray | None, *, activation: str | None,
         activation_params: list[float] | None, auto_pad: str, dilations: list[int], group: int,
         kernel_shape: list[int], pads: list[int], strides: list[int]) -> tuple[np.ndarray, ...]:
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"Conv: X {x.shape} and W {w.shape} must be 4-d")
    c, m, cg = x.shape[1], w.shape[0], w.shape[1]
    if group < 1 or c != cg * group or m % group:
        raise ValueError(f"Conv: group={group} does not fit X's {c} channels and W {w.shape}")
    if m % BLOCK:
        raise ValueError(f"Conv: the output is blocked: W's {m} filters must be a multiple of {BLOCK}")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER") and list(dilations) != [1, 1]:
        raise ValueError(f"Conv: dilations {dilations} with auto_pad {auto_pad}")
    depthwise = cg == 1 and m // group == 1
    blocked_input = cg >= BLOCK or depthwise
    if blocked_input:
        blocks_of("Conv", x)
        if not depthwise and (cg % BLOCK or (m // group) % BLOCK):
            raise ValueError(f"Conv: a group takes whole blocks of channels and filters, got {cg} and {m // group}")
    elif group != 1:
        raise ValueError(f"Conv: a grouped convolution must be depthwise or take whole blocks, got group={group}")
    logical_x = unblock(x) if blocked_input else x
    (y,) = onnx_conv(logical_x, _logical_weight(w, group, blocked_input), b, auto_pad=auto_pad, dilations=dilations,
                     group=group, kernel_shape=kernel_shape, pads=pads, strides=strides)
    if total is not None:
        if total.shape != y.shape:
            raise ValueError(f"Conv: Sum {total.shape} must have the output's shape {y.shape}")
        y = y + unblock(total)
    return (to_blocks(_activate(y, activation, activation_params).astype(x.dtype)),)
