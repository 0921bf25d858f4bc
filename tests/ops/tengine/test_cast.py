"""Tengine Cast: type codes are ONNX's; integers truncate and saturate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.helpers import kernel

cast = kernel("tengine", "Cast")


@pytest.mark.parametrize(("code", "dtype"), [(1, np.float32), (10, np.float16), (6, np.int32), (3, np.int8),
                                             (2, np.uint8), (5, np.int16)])
def test_cast_codes_are_onnx_types(code: int, dtype: type) -> None:
    x = np.array([-300.7, -2.5, -0.4, 0.0, 1.9, 40000.2])
    (y,) = cast(x, type_from=1, type_to=code)
    assert y.dtype == np.dtype(dtype)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_array_equal(y, x.astype(dtype))
    else:
        lo, hi = np.iinfo(dtype).min, np.iinfo(dtype).max
        np.testing.assert_array_equal(y, [min(hi, max(lo, math.trunc(v))) for v in x])
    (same,) = cast(x)
    assert same.dtype == x.dtype
