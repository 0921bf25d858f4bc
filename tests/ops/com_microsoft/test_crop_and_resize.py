"""com.microsoft CropAndResize: the kernel against onnxruntime (bilinear and nearest, boxes inside, reaching out of
the image and flipped, one-wide crops, a given extrapolation value; onnxruntime's CPU kernel serves float only, so
the double cases run against its float outputs), the output shape against onnxruntime's, rejected nodes."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    formula_shapes,
    inferred,
    one_node_model,
    oracle_tests,
    problem_checks,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "CropAndResize"
X = Seeded(11).f32(2, 3, 5, 6)
# dyadic corners: float and double sample the same positions (nearest rounds halves, so 0.9 * 5 in float32 and in
# double would pick different neighbours)
ROIS = np.array([[0.0, 0.0, 1.0, 1.0],      # the whole image
                 [0.125, 0.25, 0.75, 0.875],  # inside
                 [-0.25, 0.375, 1.5, 1.25],  # reaching out of the image: extrapolated samples
                 [0.75, 0.875, 0.25, 0.125],  # flipped
                 [0.5, 0.5, 0.5, 0.5]], np.float32)  # a point
BATCH = np.array([0, 1, 1, 0, 1], np.int32)
SIZES = [(3, 4), (1, 1), (1, 5), (6, 2)]
ATTRS: list[dict[str, Any]] = [{}, {"mode": "nearest"}, {"extrapolation_value": -2.5},
                               {"mode": "nearest", "extrapolation_value": 7.0}]


def crop(h: int, w: int) -> np.ndarray:
    return np.array([h, w], np.int32)




def float_outputs_as_double(attrs: dict[str, Any], h: int, w: int) -> list[Any]:
    """onnxruntime's float outputs for the float case, widened: what the double kernel must give (the data are
    float32 values, so float and double sampling agree within rounding)."""
    model, feeds = one_node_model(OP, 1, [X, ROIS, BATCH, crop(h, w)], attrs, 1, domain=DOMAIN)
    return [y.astype(np.float64) for y in run_onnxruntime(model, feeds)]


CASES = [OracleCase(OP, attrs, [X, ROIS, BATCH, crop(h, w)], (1,), oracle="ort", id=f"float-{h}x{w}-{k}",
                    domain=DOMAIN) for h, w in SIZES for k, attrs in enumerate(ATTRS)]
CASES += [OracleCase(OP, attrs, [X.astype(np.float64), ROIS.astype(np.float64), BATCH, crop(h, w)], (1,),
                     oracle=partial(float_outputs_as_double, attrs, h, w), id=f"double-{h}x{w}-{k}",
                     domain=DOMAIN) for h, w in SIZES for k, attrs in enumerate(ATTRS)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize(("h", "w"), SIZES)
def test_shape_formula_matches_onnxruntime(h: int, w: int) -> None:
    inputs = [X, ROIS, BATCH, crop(h, w)]
    mine = formula_shapes(version(DOMAIN, OP, 1), inputs, {}, {"crop_size": [h, w], "batch_indices": BATCH.tolist()})
    model, feeds = one_node_model(OP, 1, inputs, {}, 1, domain=DOMAIN)
    assert mine[0] == list(run_onnxruntime(model, feeds)[0].shape)


def test_unknown_crop_size_gives_symbolic_dims() -> None:
    result = inferred(version(DOMAIN, OP, 1), [[2, 3, 5, 6], [4, 4], [4], [2]])
    assert not result.problems and result.outputs[0] is not None
    dims = [str(d) for d in result.outputs[0]]
    assert dims[:2] == ["4", "3"] and not any(d.isdigit() for d in dims[2:]), dims


@pytest.mark.parametrize(("crop_size", "batch", "check"), [
    ([0, 3], [0, 1], "cropandresize_c1"),
    ([3, -1], [0, 1], "cropandresize_c1"),
    ([3, 3], [0, 2], "cropandresize_c2"),
    ([3, 3], [-1, 0], "cropandresize_c2"),
])
def test_invalid_node_is_reported(crop_size: list[int], batch: list[int], check: str) -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [[2, 3, 5, 6], [2, 4], [2], [2]], {},
                            {"crop_size": crop_size, "batch_indices": batch})
    assert any(check in c for c in checks), checks


def test_unknown_mode_is_reported() -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [[2, 3, 5, 6], [2, 4], [2], [2]], {"mode": "cubic"})
    assert any("allowed" in c for c in checks), checks
