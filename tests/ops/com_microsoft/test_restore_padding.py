"""com.microsoft RestorePadding: onnxruntime runs it on CUDA only, so the kernel is checked against ScatterND at the
offsets run by onnxruntime (restoring what RemovePadding removed gives the input with zeros at the padding) and on
offsets in any order; the shape formula against its outputs; invalid nodes under their constraint ids."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    Seeded,
    ShapeCase,
    assert_registry_ranges_exercised,
    formula_shapes,
    rejection_tests,
    run,
    shape_case,
    version,
)
from tests.helpers.ort_attention import gather_scatter_outputs

DOMAIN = "com.microsoft"
OP = "RestorePadding"
f32 = Seeded(37).f32
PARAMS = [
    pytest.param(3, 4, [1, 2, 4], id="documented"),
    pytest.param(2, 3, [0, 3], id="empty_and_full"),
    pytest.param(1, 5, [5], id="no_padding"),
    pytest.param(4, 2, [1, 1, 0, 2], id="ragged"),
]


@pytest.mark.parametrize(("batch", "seq", "counts"), PARAMS)
def test_kernel_matches_onnxruntime_scatter(batch: int, seq: int, counts: list[int]) -> None:
    x = f32(batch, seq, 3)
    count = np.array(counts, np.int32)
    output, offsets, _, _ = run(DOMAIN, "RemovePadding", 1, [x, count])
    _, restored = gather_scatter_outputs(x, offsets, sum(counts))
    (back,) = run(DOMAIN, OP, 1, [output, offsets])
    np.testing.assert_array_equal(back, restored)
    real = np.arange(seq)[None, :] < count[:, None]
    np.testing.assert_array_equal(back, np.where(real[..., None], x, 0))
    assert formula_shapes(version(DOMAIN, OP, 1), [output, offsets], {},
                          {"token_offset": offsets.reshape(-1).tolist()}) == [list(back.shape)]


def test_offsets_in_any_order() -> None:
    tokens = f32(5, 2)
    offsets = np.array([[4, 0, 5], [2, 1, 3]], np.int32)
    (out,) = run(DOMAIN, OP, 1, [tokens, offsets])
    flat = out.reshape(6, 2)
    np.testing.assert_array_equal(flat[[4, 0, 5, 2, 1]], tokens)
    np.testing.assert_array_equal(flat[3], [0, 0])


def test_fp16_stays_fp16() -> None:
    (out,) = run(DOMAIN, OP, 1, [f32(3, 4).astype(np.float16), np.arange(4, dtype=np.int32).reshape(2, 2)])
    assert out.dtype == np.float16


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {1})


def _node(shape: list[int], offsets: np.ndarray) -> ShapeCase:
    return shape_case(OP, 1, [shape, offsets.astype(np.int32)], {}, 1, domain=DOMAIN)


REJECTED = [
    (_node([7, 4], np.arange(6).reshape(2, 3)), "restorepadding_c1"),
    (_node([2, 3, 4], np.arange(6).reshape(2, 3)), "restorepadding_c1"),
    (_node([4, 4], np.array([[0, 1, 1], [2, 3, 4]])), "restorepadding_c2"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
