"""DeformConv: the kernel against onnx.reference and onnxruntime in 2-D, and in 1-D and 3-D (which neither runs)
against 2-D DeformConv and plain Conv; the shape formula against onnx; rejected nodes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tests.helpers import (
    OracleCase,
    Seeded,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "DeformConv"
seeded = Seeded(4329)
rng = seeded.rng


def q(*shape: int, scale: int = 4, low: int = -8, high: int = 9) -> np.ndarray:
    """Values on a 1/scale grid (exact sums in every float width)."""
    return (rng.integers(low, high, shape) / scale).astype(np.float32)


def layout(x: tuple[int, ...], oc: int, kernel: list[int], attrs: dict[str, Any]) -> tuple[list[int], int]:
    """Output spatial shape and tap count of a node."""
    r = len(kernel)
    pads = attrs.get("pads", [0] * 2 * r)
    dil = attrs.get("dilations", [1] * r)
    st = attrs.get("strides", [1] * r)
    out = [(x[2 + i] + pads[i] + pads[i + r] - (kernel[i] - 1) * dil[i] - 1) // st[i] + 1 for i in range(r)]
    return out, math.prod(kernel)


def case(x_shape: tuple[int, ...], oc: int, kernel: list[int], attrs: dict[str, Any], *, bias: bool = False,
         mask: bool = False, since: tuple[int, ...] = (19, 22), oracle: str = "ref", id: str = "") -> OracleCase:
    group, og = attrs.get("group", 1), attrs.get("offset_group", 1)
    out, taps = layout(x_shape, oc, kernel, attrs)
    n = x_shape[0]
    inputs: list[np.ndarray | None] = [q(*x_shape), q(oc, x_shape[1] // group, *kernel),
                                       q(n, og * taps * len(kernel), *out, scale=8, low=-12, high=13)]
    inputs.append(q(oc) if bias else None)
    if mask:
        inputs.append(q(n, og * taps, *out, low=0, high=5))
    while inputs[-1] is None:
        inputs.pop()
    return OracleCase(OP, attrs, inputs, since, oracle=oracle, id=id)


NODES: list[tuple[str, tuple[int, ...], int, list[int], dict[str, Any], bool, bool]] = [
    ("basic", (1, 2, 4, 5), 2, [2, 2], {}, False, False),
    ("pads_strides_bias", (2, 4, 5, 5), 2, [3, 2], {"pads": [1, 0, 1, 1], "strides": [2, 1]}, True, False),
    ("dilations_group_mask", (1, 4, 6, 5), 4, [2, 2], {"dilations": [2, 1], "group": 2}, False, True),
    ("offset_groups", (2, 4, 4, 4), 2, [2, 3], {"offset_group": 2, "pads": [0, 1, 1, 1]}, True, True),
    ("groups_and_offset_groups", (1, 4, 4, 4), 4, [3, 3],
     {"group": 2, "offset_group": 2, "strides": [2, 2], "pads": [1, 1, 1, 1]}, False, True),
]
# onnxruntime at both versions; onnx.reference (slow: a GridSample per position) at version 19
CASES = [case(x, oc, k, attrs, bias=b, mask=m, oracle=oracle, since=since, id=f"{name}_{oracle}")
         for name, x, oc, k, attrs, b, m in NODES for oracle, since in (("ort", (19, 22)), ("ref", (19,)))]
# an image one row high: onnx.reference normalises by H - 1 = 0 and fails
CASES.append(case((1, 2, 1, 6), 2, [1, 3], {"pads": [0, 1, 0, 1]}, mask=True, oracle="ort", id="one_row"))


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_1d_is_2d_with_one_row() -> None:
    """1-D DeformConv equals 2-D DeformConv (onnxruntime) over a one-row image with zero vertical offsets."""
    x, w = q(2, 2, 7), q(3, 2, 3)
    attrs = {"pads": [1, 0]}
    (width,), taps = layout(x.shape, 3, [3], attrs)
    offset, mask = q(2, taps, width, scale=8, low=-12, high=13), q(2, taps, width, low=0, high=5)
    (y,) = run("ai.onnx", OP, 19, [x, w, offset, None, mask], **attrs)
    moves = np.stack([np.zeros_like(offset), offset], axis=2).reshape(2, taps * 2, 1, width)  # per tap: dy, dx
    want = oracle_outputs(OracleCase(OP, {"pads": [0, 1, 0, 0]}, [x[:, :, None], w[:, :, None], moves, None,
                                                                   mask[:, :, None]], (19,), oracle="ort"), 19)
    np.testing.assert_allclose(y, want[0][:, :, 0], rtol=1e-5, atol=1e-5)


def test_3d_with_a_flat_kernel_is_2d_per_slice() -> None:
    """A 1 x 2 x 2 kernel with zero depth offsets samples each depth slice as 2-D DeformConv does (onnxruntime)."""
    x, w = q(1, 2, 3, 4, 4), q(2, 2, 1, 2, 2)
    out, taps = layout(x.shape, 2, [1, 2, 2], {})
    moves = q(1, taps, 2, *out, scale=8, low=-12, high=13)  # per tap: dy, dx
    offset = np.concatenate([np.zeros_like(moves[:, :, :1]), moves], axis=2).reshape(1, taps * 3, *out)
    (y,) = run("ai.onnx", OP, 22, [x, w, offset])
    for depth in range(out[0]):
        per_slice = moves[:, :, :, depth].reshape(1, taps * 2, *out[1:])
        want = oracle_outputs(OracleCase(OP, {}, [x[:, :, depth], w[:, :, 0], per_slice], (19,), oracle="ort"), 19)
        np.testing.assert_allclose(y[:, :, depth], want[0], rtol=1e-5, atol=1e-5)


def test_zero_offsets_are_a_convolution() -> None:
    """Without offsets and mask, 3-D DeformConv is Conv (onnxruntime's Conv)."""
    x, w, b = q(1, 4, 4, 5, 3), q(2, 2, 2, 3, 1), q(2)
    attrs = {"group": 2, "pads": [1, 0, 0, 0, 1, 0], "strides": [1, 2, 1]}
    out, taps = layout(x.shape, 2, [2, 3, 1], attrs)
    (y,) = run("ai.onnx", OP, 22, [x, w, np.zeros((1, taps * 3, *out), np.float32), b], **attrs)
    want = oracle_outputs(OracleCase("Conv", attrs, [x, w, b], (11,), oracle="ort"), 11)
    np.testing.assert_allclose(y, want[0], rtol=1e-5, atol=1e-5)


SHAPES = [
    shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 8, 3, 4]]),
    shape_case(OP, 22, [[2, 4, 5, 5], [2, 2, 3, 2], [2, 24, 3, 3], [2], [2, 12, 3, 3]],
               {"pads": [1, 0, 1, 1], "strides": [2, 2], "group": 2, "offset_group": 2}),
]

REJECTED = [
    (shape_case(OP, 19, [[1, 2], [2, 2], [1, 2]]), "deformconv_c1"),
    (shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 8, 3, 4]], {"kernel_shape": [2, 3]}), "deformconv_c2"),
    (shape_case(OP, 19, [[1, 4, 4, 5], [3, 2, 2, 2], [1, 8, 3, 4]], {"group": 2}), "deformconv_c3"),
    (shape_case(OP, 19, [[1, 3, 4, 5], [2, 3, 2, 2], [1, 16, 3, 4]], {"offset_group": 2}), "deformconv_c4"),
    (shape_case(OP, 19, [[1, 2, 2, 2], [2, 2, 3, 3], [1, 18, 1, 1]]), "deformconv_c5"),
    (shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 8, 3, 3]]), "deformconv_c6"),
    (shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 4, 3, 4]]), "deformconv_c6"),
    (shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 8, 3, 4], None, [1, 8, 3, 4]]), "deformconv_c7"),
    (shape_case(OP, 19, [[1, 2, 4, 5], [2, 2, 2, 2], [1, 8, 3, 4], [3]]), "binding"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)
