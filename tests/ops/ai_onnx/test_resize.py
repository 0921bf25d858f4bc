"""Resize: the kernel against onnx.reference and onnxruntime for every mode, nearest_mode, coordinate transform,
cubic_coeff_a, exclude_outside, antialias, axes and keep_aspect_ratio_policy; the data-dependent shape formulas
against onnx's shape inference; rejected nodes; the readings where the sources part."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
)

OP = "Resize"
seeded = Seeded(4330)
X2 = seeded.f32(4, 6)
X4 = seeded.f32(1, 2, 4, 6)
EMPTY = np.zeros(0, np.float32)


def f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def inputs(x: np.ndarray, *, scales: np.ndarray | None = None, sizes: np.ndarray | None = None,
           roi: np.ndarray | None = None) -> list[np.ndarray | None]:
    """X, roi, scales, sizes as a node from version 11 takes them (an unused roi or scales is empty)."""
    ins: list[np.ndarray | None] = [x, EMPTY if roi is None else roi, EMPTY if scales is None else scales]
    if sizes is not None:
        ins.append(sizes)
    return ins


# output lengths are exact multiples here (length * scale integral): every source agrees on the coordinates
UP, DOWN = f32(2, 1.5), f32(0.5, 0.5)
TRANSFORMS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")


def kernel_cases() -> list[OracleCase]:
    cases = []
    for mode, transform, (label, scales) in itertools.product(("nearest", "linear", "cubic"), TRANSFORMS,
                                                              (("up", UP), ("down", DOWN))):
        attrs = {"mode": mode, "coordinate_transformation_mode": transform}
        cases.append(OracleCase(OP, attrs, inputs(X2, scales=scales), all_since(OP, 11),
                                id=f"{mode}_{transform}_{label}"))
    for nearest_mode in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
        attrs = {"mode": "nearest", "nearest_mode": nearest_mode, "coordinate_transformation_mode": "asymmetric"}
        cases.append(OracleCase(OP, attrs, inputs(X2, sizes=i64(8, 9)), all_since(OP, 11), id=nearest_mode))
        attrs = {**attrs, "coordinate_transformation_mode": "half_pixel"}
        cases.append(OracleCase(OP, attrs, inputs(X2, scales=f32(0.5, 2.5)), (13,), id=f"{nearest_mode}_half_pixel"))
    for a, exclude in itertools.product((-0.5, -0.75), (0, 1)):
        attrs = {"mode": "cubic", "cubic_coeff_a": a, "exclude_outside": exclude}
        cases.append(OracleCase(OP, attrs, inputs(X2, scales=f32(1.5, 2)), (11, 19), id=f"cubic_a{a}_ex{exclude}"))
    crop = {"mode": "linear", "coordinate_transformation_mode": "tf_crop_and_resize", "extrapolation_value": 7.5}
    roi = f32(-0.25, 0.25, 0.75, 1.25)
    cases.append(OracleCase(OP, crop, inputs(X2, sizes=i64(5, 4), roi=roi), all_since(OP, 11), id="tf_crop_sizes"))
    cases.append(OracleCase(OP, {**crop, "mode": "nearest"}, inputs(X2, sizes=i64(3, 7), roi=roi), (13, 18),
                            id="tf_crop_nearest"))
    # antialias: the kernel stretched by 1 / scale on shrinking axes
    for mode, transform in itertools.product(("linear", "cubic"), ("half_pixel", "asymmetric")):
        attrs = {"mode": mode, "antialias": 1, "coordinate_transformation_mode": transform}
        x = seeded.f32(8, 12)
        cases.append(OracleCase(OP, attrs, inputs(x, scales=f32(0.5, 0.25)), (18, 19),
                                id=f"antialias_{mode}_{transform}"))
        cases.append(OracleCase(OP, attrs, inputs(x, scales=f32(0.5, 0.25)), (19,), oracle="ort",
                                id=f"antialias_{mode}_{transform}_ort"))
    cases.append(OracleCase(OP, {"mode": "cubic", "antialias": 1, "exclude_outside": 1}, inputs(X2, sizes=i64(2, 3)),
                            (18,), id="antialias_cubic_exclude"))
    # axes (version 18): a subset, in any order, negative
    for label, axes, scales in (("axes_2_3", [2, 3], f32(2, 0.5)), ("axes_3_2", [3, 2], f32(0.5, 2)),
                                ("axes_negative", [-1], f32(1.5))):
        # onnx.reference cannot take negative axes: onnxruntime there
        oracle = "ort" if min(axes) < 0 else "ref"
        cases.append(OracleCase(OP, {"mode": "linear", "axes": axes}, inputs(X4, scales=scales), (18, 19),
                                oracle=oracle, id=label))
    for policy in ("not_larger", "not_smaller"):
        cases.append(OracleCase(OP, {"mode": "cubic", "axes": [2, 3], "keep_aspect_ratio_policy": policy},
                                inputs(X4, sizes=i64(7, 7)), (18, 19), id=policy))
    cases.append(OracleCase(OP, {"mode": "linear", "coordinate_transformation_mode": "half_pixel_symmetric"},
                            inputs(X2, scales=f32(0.625, 1.375)), (19,), id="half_pixel_symmetric"))
    # types: float16, double, integers (rounded half to even, saturated), as onnx.reference computes them
    cases.append(OracleCase(OP, {"mode": "linear"}, inputs(X2.astype(np.float16), scales=UP), (13,), rtol=2e-3,
                            id="float16"))
    cases.append(OracleCase(OP, {"mode": "cubic"}, inputs(X2.astype(np.float64), scales=UP), (19,), id="double"))
    ints = (X2 * 40).astype(np.int32)
    cases.append(OracleCase(OP, {"mode": "linear"}, inputs(ints, scales=f32(2, 2)), (13,), id="int32"))
    cases.append(OracleCase(OP, {"mode": "cubic"}, inputs(np.abs(ints).astype(np.uint8), scales=f32(2, 2)), (19,),
                            id="uint8_saturated"))
    # version 10: x / scale, nearest floors when an axis grows and ceils when it shrinks (onnx.reference cannot run it)
    for mode, scales in itertools.product(("nearest", "linear"), (f32(1, 1, 2, 1.5), f32(1, 1, 0.75, 0.5))):
        cases.append(OracleCase(OP, {"mode": mode}, [X4, scales], (10,), oracle="ort",
                                id=f"v10_{mode}_{scales[2]}"))
    # tf_half_pixel_for_nn (version 11 only; onnx.reference does not know it)
    cases.append(OracleCase(OP, {"coordinate_transformation_mode": "tf_half_pixel_for_nn"},
                            inputs(X4, scales=f32(1, 1, 2, 0.5)), (11,), oracle="ort", id="tf_half_pixel_for_nn"))
    return cases


CASES = kernel_cases()


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _both(case: OracleCase, opset: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ours, onnxruntime's, onnx.reference's) output of a case."""
    from tests.helpers import kernel_outputs

    ours = kernel_outputs(case, opset)[0]
    ort = oracle_outputs(OracleCase(case.op, case.attrs, case.inputs, (opset,), oracle="ort"), opset)[0]
    ref = oracle_outputs(OracleCase(case.op, case.attrs, case.inputs, (opset,)), opset)[0]
    return ours, ort, ref


@pytest.mark.parametrize("transform", ["align_corners", "tf_crop_and_resize"])
def test_resized_length_is_the_integer_length(transform: str) -> None:
    """4 * 0.6 gives 2 output pixels: align_corners maps them to 0 and 3 (length_resized - 1 = 1, the text and
    onnxruntime); onnx.reference divides by 4 * 0.6 - 1 = 1.4 (readings)."""
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    roi = f32(0, 0, 1, 1) if transform == "tf_crop_and_resize" else None
    case = OracleCase(OP, {"mode": "linear", "coordinate_transformation_mode": transform},
                      inputs(x, scales=f32(1, 0.6), roi=roi), (19,))
    ours, ort, ref = _both(case, 19)
    np.testing.assert_allclose(ours, [[0, 3]])
    np.testing.assert_allclose(ort, ours)
    assert not np.allclose(ref, ours)


def test_pytorch_half_pixel_single_output_samples_zero() -> None:
    """An output length of 1 samples position 0 (the text, onnxruntime); onnx.reference samples -0.5 there, which
    cubic weighs differently."""
    x = np.array([[4.0, 0.0, 8.0, 2.0]], np.float32)
    case = OracleCase(OP, {"mode": "cubic", "coordinate_transformation_mode": "pytorch_half_pixel"},
                      [x, None, None, i64(1, 1)], (19,))
    ours, ort, ref = _both(case, 19)
    assert ours.reshape(-1).tolist() == [4.0]
    np.testing.assert_allclose(ort, ours)
    assert not np.allclose(ref, ours)


def test_axis_keeping_its_length_still_resamples() -> None:
    """3 * 1.25 floors to 3, but the scale is 1.25: positions (y + 0.5) / 1.25 - 0.5 (the text, onnx.reference);
    onnxruntime leaves such an axis unchanged (readings)."""
    x = np.array([[0.0, 1.0, 4.0]], np.float32)
    case = OracleCase(OP, {"mode": "linear"}, inputs(x, scales=f32(1, 1.25)), (13,))
    ours, ort, ref = _both(case, 13)
    np.testing.assert_allclose(ours, [[0.0, 0.7, 2.5]], rtol=1e-6)
    np.testing.assert_allclose(ref, ours, rtol=1e-6)
    np.testing.assert_allclose(ort, x)


def test_integers_round_half_to_even() -> None:
    """Linear midpoints of uint8 [1, 2, 3] are 1.5 and 2.5: both round to 2 (onnx.reference; onnxruntime truncates
    to 1 and 2)."""
    x = np.array([[1, 2, 3]], np.uint8)
    (y,) = run("ai.onnx", OP, 19, inputs(x, scales=f32(1, 2)), mode="linear",
               coordinate_transformation_mode="asymmetric")
    assert y.dtype == np.uint8 and y.reshape(-1).tolist() == [1, 2, 2, 2, 3, 3]
    (yb,) = run("ai.onnx", OP, 19, inputs(np.array([[True, False]]), scales=f32(1, 2)), mode="nearest")
    assert yb.dtype == np.bool_ and yb.reshape(-1).tolist() == [True, True, False, False]


def test_extrapolation_fills_positions_outside_on_any_axis() -> None:
    x = np.ones((2, 2), np.float32)
    (y,) = run("ai.onnx", OP, 19, inputs(x, sizes=i64(3, 3), roi=f32(0, -1, 1, 1)), mode="linear",
               coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=9.0)
    np.testing.assert_array_equal(y, [[9, 1, 1], [9, 1, 1], [9, 1, 1]])


def _shape(opset: int, shape: list[int], attrs: dict[str, Any] | None = None, *, scales: list[float] | None = None,
           sizes: list[int] | None = None, roi: list[float] | None = None) -> Any:
    ins: list[Any] = [shape, EMPTY if roi is None else f32(*roi)]
    ins.append(EMPTY if scales is None else f32(*scales))
    if sizes is not None:
        ins.append(i64(*sizes))
    return shape_case(OP, opset, ins, attrs)


SHAPES = [
    shape_case(OP, 10, [[1, 2, 3, 5], f32(1, 1, 2, 0.5)]),
    _shape(11, [1, 2, 3, 5], scales=[1, 1, 0.6, 1.7]),
    _shape(11, [2, 7], {"mode": "cubic"}, sizes=[3, 9]),
    _shape(13, [10, 100], scales=[0.7, 0.29]),  # exact products: 6 and 28 (onnxruntime computes 7 and 29)
    _shape(13, [4, 6], {"coordinate_transformation_mode": "tf_crop_and_resize"}, roi=[0, 0.25, 1, 0.75],
           scales=[2, 2]),  # the roi does not shrink the output (the text's formula would, see the readings)
    _shape(18, [1, 2, 4, 6], {"axes": [3, -2]}, scales=[0.5, 2]),
    _shape(18, [1, 2, 4, 6], {"axes": [2, 3], "keep_aspect_ratio_policy": "not_larger"}, sizes=[7, 7]),
    _shape(19, [1, 2, 5, 3], {"axes": [2, 3], "keep_aspect_ratio_policy": "not_smaller"}, sizes=[7, 7]),
    _shape(19, [3, 5, 4], {"keep_aspect_ratio_policy": "not_larger"}, sizes=[6, 8, 8]),
]

REJECTED = [
    (shape_case(OP, 10, [[2, 3], f32(1, 1, 2)]), "resize_c1"),
    (shape_case(OP, 10, [[2, 3], f32(1, 0)]), "resize_c2"),
    (_shape(11, [2, 3], scales=[1, 2], sizes=[2, 6]), "resize_c3"),
    (_shape(13, [2, 3]), "resize_c3"),
    (_shape(13, [2, 3], sizes=[4, 5, 6]), "resize_c4"),
    (_shape(19, [2, 3], {"coordinate_transformation_mode": "tf_crop_and_resize"}, scales=[1, 2]), "resize_c5"),
    (_shape(13, [2, 3], sizes=[2, -1]), "resize_c6"),
    (_shape(13, [2, 0], scales=[1, 2]), "resize_c7"),
    (_shape(18, [2, 3], {"axes": [2]}, scales=[2]), "resize_c8"),
    (_shape(18, [2, 3], {"axes": [1, -1]}, scales=[2, 2]), "resize_c9"),
    (_shape(18, [2, 3], {"keep_aspect_ratio_policy": "not_larger"}, scales=[2, 2]), "resize_c10"),
    (_shape(13, [2, 3], {"coordinate_transformation_mode": "tf_half_pixel_for_nn"}, scales=[1, 2]),
     "attr_allowed"),
    (_shape(18, [2, 3], {"coordinate_transformation_mode": "half_pixel_symmetric"}, scales=[1, 2]),
     "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def holding(opset: int, inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> dict[str, list[Any]]:
    """The readings whose `when` holds for a node with these inputs (values known): id -> their first output's
    shape (None where the reading states none)."""
    from opset.infer import infer_shapes
    from tests.helpers import registry

    v = registry().resolve("ai.onnx", OP, opset)
    shapes = [None if x is None else list(x.shape) for x in inputs]
    values = {p.name: x.reshape(-1).tolist() for p, x in zip(v.inputs, inputs, strict=False) if x is not None}
    result = infer_shapes(v, shapes, attrs, values, all_values_known=True)
    return {r.reading.id: (None if r.outputs[0] is None else list(r.outputs[0])) for r in result.readings}


@pytest.mark.parametrize(("opset", "length", "scale"), [(10, 10, 0.7), (13, 100, 0.29), (19, 1000, 0.7)])
def test_float32_lengths_reading_gives_onnxruntimes_shape(opset: int, length: int, scale: float) -> None:
    """resize_r4 states onnxruntime's output length (the floor of the float32 product), the registry the exact one."""
    x = np.zeros((1, length), np.float32)
    scales = f32(1, scale)
    ins: list[np.ndarray | None] = [x, scales] if opset == 10 else [x, None, scales]
    ort = oracle_outputs(OracleCase(OP, {}, ins, (opset,), oracle="ort"), opset)[0]
    (ours,) = run("ai.onnx", OP, opset, ins)
    assert ours.shape[1] == ort.shape[1] - 1
    assert holding(opset, ins, {})["resize_r4"] == list(ort.shape)


def test_readings_hold_where_the_sources_part() -> None:
    x = np.zeros((2, 4), np.float32)
    align = {"mode": "linear", "coordinate_transformation_mode": "align_corners"}
    assert "resize_r2" in holding(19, [x, None, f32(1, 0.6)], align)
    assert "resize_r2" not in holding(19, [x, None, f32(1, 0.5)], align)
    assert "resize_r3" in holding(13, [x, None, f32(1.25, 1)], {"mode": "linear"})
    assert "resize_r3" not in holding(13, [x, None, f32(2, 1)], {"mode": "linear"})
    crop = {"coordinate_transformation_mode": "tf_crop_and_resize"}
    assert holding(18, [x, f32(0, 0, 0.5, 1), f32(2, 2)], crop)["resize_r1"] == [2, 8]
