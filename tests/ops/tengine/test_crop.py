"""Tengine Crop: Caffe's offsets from an axis, spatial crops, centre crops and MXNet's two-input mode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import formula_shapes, inferred, kernel, version

RNG = np.random.default_rng(20240602)
V = version("tengine", "Crop", 1)
crop = kernel("tengine", "Crop")


def test_crop_modes() -> None:
    x = RNG.standard_normal((2, 4, 5, 6))
    ref = np.zeros((2, 2, 3, 3))
    (caffe,) = crop(x, ref, axis=1, offset_c=1, offset_h=2, offset_w=3)
    np.testing.assert_array_equal(caffe, [[[[x[n, 1 + c, 2 + h, 3 + w] for w in range(3)] for h in range(3)]
                                           for c in range(2)] for n in range(2)])
    (spatial,) = crop(x, ref, axis=2, offset_h=1, offset_w=0)
    assert spatial.shape == (2, 4, 3, 3) and spatial[1, 3, 0, 2] == x[1, 3, 1, 2]
    (centre,) = crop(x, flag=1, num_args=1, crop_h=3, crop_w=2)
    assert centre.shape == (2, 4, 3, 2) and centre[0, 0, 0, 0] == x[0, 0, 1, 2]
    (mx2,) = crop(x, ref, flag=1, num_args=2, offset_h=2, offset_w=1)
    assert mx2.shape == (2, 4, 3, 3) and mx2[0, 2, 2, 2] == x[0, 2, 4, 3]
    cases: list[tuple[dict[str, Any], list[np.ndarray], np.ndarray]] = [
        ({"axis": 1, "offset_c": 1, "offset_h": 2, "offset_w": 3}, [x, ref], caffe),
        ({"flag": 1, "num_args": 1, "crop_h": 3, "crop_w": 2}, [x], centre)]
    for attrs, inputs, got in cases:
        assert formula_shapes(V, inputs, attrs) == [list(got.shape)]
    with pytest.raises(ValueError, match="does not fit"):
        crop(x, ref, axis=2, offset_h=4)
    assert inferred(V, [[2, 4, 5, 6], [2, 2, 3, 3]], {"axis": 2, "offset_h": 4}).problems
