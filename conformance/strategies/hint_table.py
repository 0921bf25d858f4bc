"""The per-op hint table (see `hints.py`): only what the schemas cannot express yet.

Each entry says why it exists. Remove an entry once the op's YAML carries signatures and constraints
that let the generic builder draw valid cases by itself.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.attributes import OMIT, DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hint_linalg import (
    CONV_INTEGER_HINT,
    DEQUANTIZE_HINTS,
    EINSUM_HINT,
    GROUP_NORM_HINTS,
    LAYER_NORM_HINT,
    MATMUL_HINT,
    MATMUL_INTEGER_HINT,
    QLINEAR_CONV_HINT,
    QLINEAR_MATMUL_HINT,
    QUANTIZE_HINTS,
    RMS_NORM_HINT,
)
from conformance.strategies.hint_spatial import CONV_HINTS, CONV_TRANSPOSE_HINT, POOL_HINT
from conformance.strategies.hint_tengine import (
    DETECTION_POST_PROCESS_HINT,
    EXPAND_HINT,
    GATHER_HINT,
    L2POOL_HINT,
    PAD_HINT,
    SCATTER_HINT,
    SPARSE_TO_DENSE_HINT,
)
from conformance.strategies.hint_tensor import (
    BATCH_NORM_HINTS,
    CLIP_HINT,
    CONCAT_HINT,
    CONSTANT_HINT,
    DROPOUT_HINTS,
    FLATTEN_HINT,
    GEMM_HINTS,
    PAD_HINTS,
    REDUCE_MEAN_HINTS,
    RESHAPE_HINTS,
    SLICE_HINTS,
    SOFTMAX_HINT,
    SPACE_TO_DEPTH_HINT,
    SQUEEZE_HINTS,
    TRANSPOSE_HINT,
    UPSAMPLE_HINTS,
)
from conformance.strategies.hints import OpHint, dims, set_first_shape
from opset.model import OpVersion


def _rank_at_least(minimum: int, maximum: int = 4) -> OpHint:
    def shapes(draw: DrawFn, ctx: DrawContext) -> None:
        rank = draw(st.integers(minimum, maximum))
        set_first_shape(ctx, dims(draw, rank, ctx.max_side))

    return OpHint(shapes=shapes)


_LEGACY_BROADCAST = OpHint(attributes={"axis": lambda draw, ctx: OMIT},
                           until=6)  # B has A's shape here, so only the default axis is valid

HINTS: dict[tuple[str, str], tuple[OpHint, ...]] = {
    # kernel sizes, pads and strides must fit the spatial dims; channels and groups must agree
    ("ai.onnx", "AveragePool"): (POOL_HINT,),
    ("ai.onnx", "MaxPool"): (POOL_HINT,),
    ("ai.onnx", "Conv"): CONV_HINTS,
    ("ai.onnx", "ConvTranspose"): (CONV_TRANSPOSE_HINT,),
    ("ai.onnx", "GlobalAveragePool"): (_rank_at_least(3),),
    ("ai.onnx", "GlobalMaxPool"): (_rank_at_least(3),),
    ("ai.onnx", "BatchNormalization"): BATCH_NORM_HINTS,
    ("ai.onnx", "Gemm"): GEMM_HINTS,
    ("ai.onnx", "Add"): (_LEGACY_BROADCAST,),
    ("ai.onnx", "Mul"): (_LEGACY_BROADCAST,),
    # attributes or inputs whose values must agree with the data's shape
    ("ai.onnx", "Transpose"): (TRANSPOSE_HINT,),
    ("ai.onnx", "Squeeze"): SQUEEZE_HINTS,
    ("ai.onnx", "Reshape"): RESHAPE_HINTS,
    ("ai.onnx", "Slice"): SLICE_HINTS,
    ("ai.onnx", "Concat"): (CONCAT_HINT,),
    ("ai.onnx", "Softmax"): (SOFTMAX_HINT,),
    ("ai.onnx", "Flatten"): (FLATTEN_HINT,),
    ("ai.onnx", "ReduceMean"): REDUCE_MEAN_HINTS,
    ("ai.onnx", "SpaceToDepth"): (SPACE_TO_DEPTH_HINT,),
    ("ai.onnx", "Pad"): PAD_HINTS,
    ("ai.onnx", "Upsample"): UPSAMPLE_HINTS,
    ("ai.onnx", "Clip"): (CLIP_HINT,),
    ("ai.onnx", "Constant"): (CONSTANT_HINT,),
    # inference mode only (training draws random masks) and a ratio inside [0, 1)
    ("ai.onnx", "Dropout"): DROPOUT_HINTS,
    # index values must lie inside the indexed axis (`value(indices)` constraints only check them)
    ("tengine", "Gather"): (GATHER_HINT,),
    ("tengine", "Scatter"): (SCATTER_HINT,),  # also: indices/updates fit inside data, no repeated target
    ("tengine", "SparseToDense"): (SPARSE_TO_DENSE_HINT,),  # also: scalar, [K] or [K, 2] indices
    # 4 boxes per anchor and num_classes + 1 scores per box; positive scales, real anchors, distinct scores
    ("tengine", "DetectionPostProcess"): (DETECTION_POST_PROCESS_HINT,),
    # target shapes (input and attribute) that broadcast with the data
    ("tengine", "Expand"): (EXPAND_HINT,),
    # the window fits the input (the plan only knows kernel and strides are >= 1)
    ("tengine", "L2Pool"): (L2POOL_HINT,),
    # reflect pads must stay below the side they pad, so the mode is drawn before the pads
    ("tengine", "Pad"): (PAD_HINT,),
    # matrix products: A's last dim is B's contracted dim, batch dims broadcast
    ("ai.onnx", "MatMul"): (MATMUL_HINT,),
    ("ai.onnx", "MatMulInteger"): (MATMUL_INTEGER_HINT,),  # zero points per tensor, row or column
    ("ai.onnx", "QLinearMatMul"): (QLINEAR_MATMUL_HINT,),  # ... and positive scales shaped like them
    # an axis inside X, Scale and B broadcasting to X; a stash type numpy holds (bfloat16 is issue 10's)
    ("ai.onnx", "LayerNormalization"): (LAYER_NORM_HINT,),
    ("ai.onnx", "GroupNormalization"): GROUP_NORM_HINTS,
    ("ai.onnx", "RMSNormalization"): (RMS_NORM_HINT,),
    # scale and zero point per tensor, axis or block; positive scales; an output_dtype that fits the zero point
    ("ai.onnx", "QuantizeLinear"): QUANTIZE_HINTS,
    ("ai.onnx", "DequantizeLinear"): DEQUANTIZE_HINTS,
    # Conv's windows, with zero points (and scales) per tensor or per output channel
    ("ai.onnx", "ConvInteger"): (CONV_INTEGER_HINT,),
    ("ai.onnx", "QLinearConv"): (QLINEAR_CONV_HINT,),
    # an equation and operand shapes that fit it (labels, diagonals, ellipses, broadcasting, implicit output)
    ("ai.onnx", "Einsum"): (EINSUM_HINT,),
}


NO_HINT = OpHint()


def hint_for(version: OpVersion) -> OpHint:
    """The hint that covers `version` (by op and version range), or NO_HINT."""
    for hint in HINTS.get((version.domain, version.name), ()):
        if hint.since <= version.since and (hint.until is None or version.since <= hint.until):
            return hint
    return NO_HINT
