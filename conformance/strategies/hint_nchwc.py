"""Hints for com.microsoft.nchwc ops: blocked tensors (channels a multiple of the registry's block size, 16) and
the attributes onnxruntime's NCHWc kernels accept."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, dims, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers

BLOCK = 16


def _blocked_shape(draw: DrawFn, ctx: DrawContext) -> list[int]:
    return [draw(integers(1, 2)), BLOCK * draw(integers(1, 2)), *dims(draw, 2, ctx.max_side + 1)]


def _conv_out(size: int, kernel: int, stride: int, dilation: int, pad: int, auto_pad: str) -> int:
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return -(-size // stride)
    return (size + (0 if auto_pad == "VALID" else pad) - ((kernel - 1) * dilation + 1)) // stride + 1


def _conv_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    algorithm = draw(st.sampled_from(["nchwc", "nchwc", "depthwise", "nchw"]))
    group = 1
    if algorithm == "nchwc":
        group = draw(integers(1, 2))
        cg, mg = BLOCK * draw(integers(1, 2)), BLOCK * draw(integers(1, 2))
    elif algorithm == "depthwise":
        group = cg = BLOCK * draw(integers(1, 2))
        cg, mg = 1, 1
    else:
        cg, mg = draw(integers(1, BLOCK - 1)), BLOCK * draw(integers(1, 2))
    spatial = dims(draw, 2, ctx.max_side + 1)
    auto_pad = draw(st.sampled_from(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"]))
    same = auto_pad in ("SAME_UPPER", "SAME_LOWER")
    dilations = [1 if same else draw(integers(1, 2)) for _ in spatial]
    kernel = [draw(integers(1, max(1, (s - 1) // d + 1))) for s, d in zip(spatial, dilations, strict=True)]
    strides = [draw(integers(1, 2)) for _ in spatial]
    pads = [draw(integers(0, k - 1)) for k in kernel * 2] if auto_pad == "NOTSET" else [0, 0, 0, 0]
    if auto_pad != "NOTSET":
        ctx.attributes["auto_pad"] = auto_pad
    elif any(pads) or draw(BOOLEANS):
        ctx.attributes["pads"] = pads
    if strides != [1, 1] or draw(BOOLEANS):
        ctx.attributes["strides"] = strides
    if dilations != [1, 1] or draw(BOOLEANS):
        ctx.attributes["dilations"] = dilations
    if draw(BOOLEANS):
        ctx.attributes["kernel_shape"] = kernel
    if group > 1 or draw(BOOLEANS):
        ctx.attributes["group"] = group
    activation = draw(st.sampled_from([None, "Relu", "Tanh", "Sigmoid", "LeakyRelu", "Clip", "HardSigmoid"]))
    if activation is not None:
        ctx.attributes["activation"] = activation
        params = {"LeakyRelu": [draw(st.sampled_from([0.01, 0.1, 0.5]))], "Clip": [-0.5, 0.75],
                  "HardSigmoid": [draw(st.sampled_from([0.2, 0.5])), 0.5]}.get(activation)
        if params is not None:
            ctx.attributes["activation_params"] = params
    n, m = draw(integers(1, 2)), mg * group
    set_input_shape(ctx, "X", [n, cg * group, *spatial])
    set_input_shape(ctx, "W", [m, cg, *kernel])
    for name, shape in (("B", [m]), ("Sum", [n, m] + [
            _conv_out(s, k, st_, d, pads[i] + pads[i + 2], auto_pad)
            for i, (s, k, st_, d) in enumerate(zip(spatial, kernel, strides, dilations, strict=True))])):
        if draw(BOOLEANS):
            ctx.omitted.discard(name)
            set_input_shape(ctx, name, shape)
        else:
            ctx.omitted.add(name)
            ctx.shapes[name] = None


# one of MLAS's three algorithms (whole blocks of channels per group, depthwise, plain NCHW input with fewer than a
# block of channels), every activation with its parameters, B and Sum each present or not; pads only without auto_pad
# (onnxruntime rejects a node with both, even zero pads)
CONV_HINT = OpHint(shapes=_conv_shapes, generic_attributes=False)
