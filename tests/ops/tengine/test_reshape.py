"""Tengine Reshape: re_shape's special values (0, -1, -2, -3, -4, reverse) as tengine-lite's reshape.c reads them,
and Tengine 1.x's readings, which the dims of older files follow."""

from __future__ import annotations

import numpy as np
import pytest

from opset.infer import infer_shapes
from tests.helpers import tengine_problems, tengine_run, version

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("shape", "re_shape", "flags", "want"), [
    ((2, 3, 4), [0, -1], {"is_onnx": 1}, (2, 12)),
    ((2, 3, 4), [0, -1], {}, (1, 24)),
    ((2, 3, 4), [4, 0, -1], {}, (4, 6)),
    ((2, 3, 4), [-3, -2], {"is_mxnet": 1}, (6, 4)),
    ((2, 3, 4), [0, -2], {"is_mxnet": 1, "reverse": 1}, (4, 3, 2)),
    ((2, 3, 4), [-1], {}, (24,)),
    ((6, 4), [2, -1, 4], {}, (2, 3, 4)),
    # a Caffe 0 after the first entry adds nothing and reads no dim (retinaface's caffe score reshapes)
    ((1, 4, 6, 8), [1, 2, -1, 0], {}, (1, 2, 96)),
    ((1, 2, 96), [1, 4, -1, 0], {}, (1, 4, 48)),
    # -4 takes its two operands (a -1 first operand is 1) and moves the cursor by one
    ((2, 12), [-4, 2, -1, 0], {"is_mxnet": 1}, (2, 1, 12)),
    ((6, 4), [-4, 2, 3, -2], {"is_mxnet": 1}, (2, 3, 4)),
    # mxnet retinaface: the second 0 copies the dim at the cursor, which every entry moves by one
    ((1, 8, 6, 10), [0, 2, -1, 0], {"is_mxnet": 1}, (1, 2, 24, 10)),
])
def test_reshape_special_values(shape: tuple[int, ...], re_shape: list[int], flags: dict[str, int],
                                want: tuple[int, ...]) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    (y,) = tengine_run("Reshape", [x], re_shape=re_shape, **flags)
    assert y.shape == want
    np.testing.assert_array_equal(y.reshape(-1), x.reshape(-1))


def test_caffe_zero_past_the_last_dim_is_no_error() -> None:
    """tengine-lite never reads a dim for a Caffe 0 after the first entry: the 3-D softmax output of retinaface's
    caffe detector reshaped by [1, 4, -1, 0] is accepted (reshape_c4 fired on it)."""
    x = np.zeros((1, 2, 96), np.float32)
    assert tengine_problems("Reshape", [x], re_shape=[1, 4, -1, 0]) == []
    assert "reshape_c4" in tengine_problems("Reshape", [x], re_shape=[1, 4, -1, 0], is_mxnet=1)


@pytest.mark.parametrize(("re_shape", "bad"), [([-4, 2], "reshape_c6"), ([2, -1, -1], "reshape_c2"),
                                               ([-5, 2], "reshape_c1"), ([-2, 2], "reshape_c3")])
def test_bad_re_shape(re_shape: list[int], bad: str) -> None:
    assert bad in tengine_problems("Reshape", [np.zeros((2, 3, 4), np.float32)], re_shape=re_shape, is_mxnet=1)


@pytest.mark.parametrize(("shape", "re_shape", "flags", "registry", "readings"), [
    # retinaface (mxnet) at stride 8 of a 640 x 960 image: Tengine 1.12's converter declared [1, 2, 480, 80]
    ([1, 8, 80, 120], [0, 2, -1, 0], {"is_mxnet": 1}, [1, 2, 320, 120],
     {"reshape_r1": [1, 2, 480, 80], "reshape_r2": [1, 2, 320, 120]}),
    # retinaface (caffe): 1.x gave 1 for the last 0, later 1.x the input's last dim; tengine-lite drops it
    ([1, 4, 60, 80], [1, 2, -1, 0], {}, [1, 2, 9600], {"reshape_r1": [1, 2, 9600, 1], "reshape_r2": [1, 2, 120, 80]}),
])
def test_tengine_1x_readings(shape: list[int], re_shape: list[int], flags: dict[str, int], registry: list[int],
                             readings: dict[str, list[int]]) -> None:
    result = infer_shapes(version("tengine", "Reshape", 1), [shape], {"re_shape": re_shape, **flags})
    assert result.outputs[0] == registry
    assert {r.reading.id: r.outputs[0] for r in result.readings} == readings
