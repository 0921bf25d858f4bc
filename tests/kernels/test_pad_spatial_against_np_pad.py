"""pad_spatial (the pooling and convolution kernels' padding: the input copied in, only the border slabs filled)
gives what np.pad with a constant gives, for 1-3 padded trailing axes, empty axes and zero pads included."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from conformance.kernels.windows import pad_spatial


@st.composite
def padded_inputs(draw: st.DrawFn) -> tuple[np.ndarray, list[int], list[int]]:
    r = draw(st.integers(1, 3))
    lead = draw(st.lists(st.integers(1, 2), min_size=0, max_size=2))
    spatial = draw(st.lists(st.integers(0, 5), min_size=r, max_size=r))
    begin = draw(st.lists(st.integers(0, 3), min_size=r, max_size=r))
    end = draw(st.lists(st.integers(0, 3), min_size=r, max_size=r))
    x = np.arange(int(np.prod(lead + spatial)), dtype=np.float32).reshape(lead + spatial) + 1
    return x, begin, end


@given(padded_inputs(), st.sampled_from([0.0, -np.inf, -7.5]))
def test_pad_spatial_is_np_pad(case: tuple[np.ndarray, list[int], list[int]], value: float) -> None:
    x, begin, end = case
    want = np.pad(x, [(0, 0)] * (x.ndim - len(begin)) + list(zip(begin, end, strict=True)), constant_values=value)
    got = pad_spatial(x, begin, end, value)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, want)
