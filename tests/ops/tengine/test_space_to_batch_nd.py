"""Tengine SpaceToBatchND: TensorFlow's NHWC space-to-batch with padding, transcribed."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.helpers import tengine_run

RNG = np.random.default_rng(20240611)


@pytest.mark.parametrize(("by", "bx", "pads"), [(1, 1, (0, 0, 0, 0)), (2, 2, (0, 0, 0, 0)), (2, 3, (1, 1, 0, 2)),
                                                 (3, 1, (0, 2, 1, 1))])
def test_space_to_batch_nd_transcribes_tensorflow(by: int, bx: int, pads: tuple[int, int, int, int]) -> None:
    x = RNG.standard_normal((2, 4, 4, 3))
    attrs = {"dilation_y": by, "dilation_x": bx, "pad_top": pads[0], "pad_bottom": pads[1], "pad_left": pads[2],
             "pad_right": pads[3]}
    (y,) = tengine_run("SpaceToBatchND", [x], **attrs)
    n = x.shape[0]
    for ob, oh, ow, c in itertools.product(*[range(d) for d in y.shape]):
        b, shift_w, shift_h = ob % n, (ob // n) % bx, (ob // n) // bx
        h, w = oh * by + shift_h - pads[0], ow * bx + shift_w - pads[2]
        inside = 0 <= h < x.shape[1] and 0 <= w < x.shape[2]
        assert y[ob, oh, ow, c] == (x[b, h, w, c] if inside else 0.0)
