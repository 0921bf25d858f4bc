"""Hints for tengine ops whose index inputs or box layouts the schema's constraints only check.

Each builder draws the shapes first, then the attributes and index values that fit them, so every case
is valid by construction (the constraints then only confirm it).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conformance.strategies.attributes import DrawFn
from conformance.strategies.context import DrawContext
from conformance.strategies.hints import OpHint, set_input_shape
from conformance.strategies.memo import BOOLEANS, integers
from conformance.strategies.values import SEEDS, fill_array


def _int32_in(draw: DrawFn, shape: list[int], low: int, high: int) -> np.ndarray:
    """int32 values in [low, high] (inclusive) of `shape`."""
    return fill_array(draw(SEEDS), "int32", shape, min_value=low, max_value=high)


# ---- DetectionPostProcess ---------------------------------------------------------------------------

def _detection_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    boxes, classes = draw(integers(1, 6)), draw(integers(1, 3))
    ctx.attributes["num_classes"] = classes
    set_input_shape(ctx, "input", [1, boxes, 4])
    set_input_shape(ctx, "score", [1, boxes, classes + 1])
    set_input_shape(ctx, "anchor", draw(st.sampled_from([[1, boxes, 4], [boxes, 4]])))


def _detection_scores(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Distinct scores in (0, 1]: ties would leave the order of detections (and so the outputs) open."""
    shape = ctx.shapes["score"]
    size = int(np.prod(shape))
    ranks = np.random.default_rng(draw(SEEDS)).permutation(size) + 1
    return np.asarray((ranks / 2 ** int(np.ceil(np.log2(size + 1)))).reshape(shape), dtype=np.float32)


def _detection_anchors(draw: DrawFn, ctx: DrawContext) -> np.ndarray:
    """Anchors (y, x, h, w) with centres in [0, 4] and sizes in [0.25, 2] (real boxes, not degenerate)."""
    shape = ctx.shapes["anchor"]
    rows = int(np.prod(shape)) // 4
    seed = draw(SEEDS)
    centres = fill_array(seed, "float", [rows, 2], min_value=0.0, max_value=4.0)
    sizes = fill_array(seed + 1, "float", [rows, 2], min_value=0.25, max_value=2.0)
    return np.concatenate([centres, sizes], axis=1).reshape(shape).astype(np.float32)


DETECTION_POST_PROCESS_HINT = OpHint(
    shapes=_detection_shapes,
    attributes={"scales": lambda draw, ctx: [float(draw(st.sampled_from([1.0, 2.0, 5.0, 10.0]))) for _ in range(4)],
                "max_detections": lambda draw, ctx: draw(integers(1, 4)),
                "max_classes_per_detection": lambda draw, ctx: draw(integers(1, 2)),
                "nms_score_threshold": lambda draw, ctx: draw(st.sampled_from([0.0, 0.25, 0.5])),
                "nms_iou_threshold": lambda draw, ctx: draw(st.sampled_from([0.3, 0.45, 0.6]))},
    values={"score": _detection_scores, "anchor": _detection_anchors})


# ---- Expand, L2Pool, Pad ----------------------------------------------------------------------------

def _broadcast_target(draw: DrawFn, shape: list[int]) -> list[int]:
    """A target that broadcasts with `shape`: each dim kept, 1, or (over a 1) widened; maybe a leading dim."""
    target = [int(draw(integers(1, 3))) if d == 1 else int(draw(st.sampled_from([d, d, 1]))) for d in shape]
    return [int(draw(integers(1, 3))) for _ in range(draw(integers(0, 1)))] + target


def _expand_shape(draw: DrawFn, ctx: DrawContext) -> np.ndarray | None:
    choice = draw(st.sampled_from(["target", "target", "empty", "omitted"]))
    if choice == "omitted":
        return None
    target = _broadcast_target(draw, ctx.shapes["input"]) if choice == "target" else []
    return np.asarray(target, dtype=np.int32)


def _expand_ex_shape(draw: DrawFn, ctx: DrawContext) -> list[int]:
    target = _broadcast_target(draw, ctx.shapes["input"])
    ctx.scratch["ex_shape"] = target
    return target


EXPAND_HINT = OpHint(attributes={"ex_shape": _expand_ex_shape,
                                 "dim_num": lambda draw, ctx: len(ctx.scratch["ex_shape"])},
                     values={"shape": _expand_shape})






def _pad_shapes(draw: DrawFn, ctx: DrawContext) -> None:
    """The mode first, so that reflect pads stay below the padded side (mode 2 needs pad < size)."""
    mode = int(draw(st.sampled_from([0, 1, 2])))
    if mode or draw(BOOLEANS):
        ctx.attributes["mode"] = mode
    _, _, h, w = ctx.shapes["input"]
    for name, side in (("pad_h_0", h), ("pad_h_1", h), ("pad_w_0", w), ("pad_w_1", w)):
        ctx.attributes[name] = int(draw(integers(0, min(3, side - 1) if mode == 2 else 3)))


PAD_HINT = OpHint(shapes=_pad_shapes)
