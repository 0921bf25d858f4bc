"""com.microsoft RemovePadding: onnxruntime runs it on CUDA only, so the kernel is checked against the layout
onnxruntime's documentation spells out (three sequences of 1, 2 and 4 tokens padded to 4) and against GatherND at
the offsets run by onnxruntime; the shape formulas against its outputs; invalid nodes under their constraint ids."""

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
OP = "RemovePadding"
f32 = Seeded(31).f32
PARAMS = [
    pytest.param(3, 4, [1, 2, 4], id="documented"),
    pytest.param(2, 3, [0, 3], id="empty_and_full"),
    pytest.param(1, 5, [5], id="no_padding"),
    pytest.param(4, 2, [1, 1, 0, 2], id="ragged"),
]
DOC_OFFSETS = [0, 4, 5, 8, 9, 10, 11, 1, 2, 3, 6, 7]


def test_remove_padding_gives_the_documented_layout() -> None:
    x = f32(3, 4, 5)
    output, offsets, cumulated, longest = run(DOMAIN, OP, 1, [x, np.array([1, 2, 4], np.int32)])
    assert offsets.dtype == np.int32 and offsets.shape == (3, 4)
    assert offsets.reshape(-1).tolist() == DOC_OFFSETS
    assert cumulated.tolist() == [0, 1, 3, 7] and longest.tolist() == [4]
    np.testing.assert_array_equal(output, x.reshape(12, 5)[DOC_OFFSETS[:7]])


@pytest.mark.parametrize(("batch", "seq", "counts"), PARAMS)
def test_kernel_matches_onnxruntime_gather(batch: int, seq: int, counts: list[int]) -> None:
    x = f32(batch, seq, 3)
    count = np.array(counts, np.int32)
    outputs = run(DOMAIN, OP, 1, [x, count])
    output, offsets, cumulated, longest = outputs
    packed, _ = gather_scatter_outputs(x, offsets, sum(counts))
    np.testing.assert_array_equal(output, packed)
    real = np.arange(seq)[None, :] < count[:, None]
    assert sorted(offsets.reshape(-1)[:sum(counts)].tolist()) == np.flatnonzero(real).tolist()
    assert cumulated.tolist() == [0, *np.cumsum(counts).tolist()] and longest.tolist() == [max(counts)]
    assert formula_shapes(version(DOMAIN, OP, 1), [x, count], {}, {"sequence_token_count": counts}) == \
        [list(o.shape) for o in outputs]


def test_fp16_stays_fp16() -> None:
    output, offsets, _, _ = run(DOMAIN, OP, 1, [f32(2, 3, 4).astype(np.float16), np.array([2, 1], np.int32)])
    assert output.dtype == np.float16 and offsets.dtype == np.int32


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {1})


def _node(shape: list[int], counts: list[int]) -> ShapeCase:
    return shape_case(OP, 1, [shape, np.array(counts, np.int32)], {}, 4, domain=DOMAIN)


REJECTED = [
    (_node([2, 3], [1, 2]), "removepadding_c1"),
    (_node([2, 3, 4], [1, 2, 3]), "removepadding_c1"),
    (_node([2, 3, 4], [1, 4]), "removepadding_c2"),
    (_node([2, 3, 4], [-1, 2]), "removepadding_c2"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
