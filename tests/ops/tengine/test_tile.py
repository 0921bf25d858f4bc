"""Tengine Tile: Caffe's flavour (reps[0] copies along axis 1) and ONNX's (a repeats input), against plain loops;
Tengine's own shape inference as the reading tile_r1."""

from __future__ import annotations

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import tengine_problems, tengine_run, version

RNG = np.random.default_rng(20240701)


def _tiled_by_loops(x: np.ndarray, counts: list[int]) -> np.ndarray:
    out = np.empty([d * r for d, r in zip(x.shape, counts, strict=True)], x.dtype)
    for idx in np.ndindex(*out.shape):
        out[idx] = x[tuple(i % d for i, d in zip(idx, x.shape, strict=True))]
    return out


def test_caffe_tiles_axis_1() -> None:
    x = RNG.standard_normal((2, 3, 2, 2)).astype(np.float32)
    (y,) = tengine_run("Tile", [x, None], frame_flag=0, reps_size=1, reps=[3])
    np.testing.assert_array_equal(y, _tiled_by_loops(x, [1, 3, 1, 1]))


@pytest.mark.parametrize("counts", [[1, 2], [3, 1], [2, 2], [0, 1]])
def test_onnx_tiles_every_axis(counts: list[int]) -> None:
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    (y,) = tengine_run("Tile", [x, np.array(counts, np.int64)], frame_flag=1)
    np.testing.assert_array_equal(y, _tiled_by_loops(x, counts))


def test_bad_tiles() -> None:
    x = np.zeros((2, 3), np.float32)
    assert "tile_c1" in tengine_problems("Tile", [x, None], frame_flag=0, reps=[0])
    assert "tile_c2" in tengine_problems("Tile", [x, None], frame_flag=1)
    assert "tile_c3" in tengine_problems("Tile", [x, np.array([2], np.int64)], frame_flag=1)


def test_tengines_shape_inference_is_a_reading() -> None:
    """tile.c gives the output the shape of the reps list (its first half overwritten by the second reversed, padded
    with 1s to 4 dims): [2] -> [2, 1, 1, 1] for a Caffe tile of [1, 3, 4, 4]."""
    result = infer_shapes(version("tengine", "Tile", 1), [[1, 3, 4, 4]], {"frame_flag": 0, "reps": [2], "reps_size": 1})
    assert result.outputs[0] == [1, 6, 4, 4]
    assert [(r.reading.id, r.outputs[0]) for r in result.readings] == [("tile_r1", [2, 1, 1, 1])]
    result = infer_shapes(version("tengine", "Tile", 1), [[1, 3, 4, 4]],
                          {"frame_flag": 0, "reps": [1, 2, 3, 4], "reps_size": 4})
    assert [r.outputs[0] for r in result.readings] == [[4, 3, 3, 4]]
