"""Softmax (the input read without a working copy) against the float64 formula, and the input left unchanged."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.kernels.ai_onnx.softmax import softmax, softmax_2d


def softmax_formula(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - np.max(x.astype(np.float64), axis=axis, keepdims=True))
    return np.asarray(e / e.sum(axis=axis, keepdims=True))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.integers(0, 2**32 - 1),
       st.sampled_from([np.float32, np.float64]), st.data())
def test_softmax_matches_the_formula_and_keeps_its_input(shape: list[int], seed: int, dtype: type[np.floating],
                                                         data: st.DataObject) -> None:
    x = (np.random.default_rng(seed).standard_normal(shape) * 10).astype(dtype)
    before = x.copy()
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    (got,) = softmax(x, axis=axis)
    np.testing.assert_array_equal(x, before)  # the kernel must not compute in its input's memory
    assert got.dtype == x.dtype and not np.shares_memory(got, x)
    np.testing.assert_allclose(got, softmax_formula(x, axis), rtol=1e-5, atol=1e-7)
    (flat,) = softmax_2d(x, axis=axis)  # opset 1/11: rows of the input coerced to 2-D at axis
    np.testing.assert_array_equal(x, before)
    rows = x.reshape(int(np.prod(shape[:axis % len(shape)])), -1)
    np.testing.assert_allclose(flat, softmax_formula(rows, 1).reshape(shape), rtol=1e-5, atol=1e-7)
