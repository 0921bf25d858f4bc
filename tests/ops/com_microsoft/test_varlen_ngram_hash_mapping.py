"""com.microsoft VarlenNGramHashMapping: the kernel against onnxruntime's CPU kernel (packed requests with their own
histories, EOS reset, segments with and without past segment ids, captured prefix states), the shape formulas
against onnxruntime, rejected nodes under their constraint ids, and packed requests equal to NGramHashMapping run on
each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "VarlenNGramHashMapping"
rng = np.random.default_rng(59)
N, PER = 3, 2
HEADS = (N - 1) * PER
CU = np.array([0, 3, 4, 9], np.int32)
IDS = np.array([1, 3, 5, 6, 3, 8, 9, 3, 2])
SEGMENTS = np.array([0, 0, 1, 5, 1, 1, 2, 2, 2], np.int32)
PAST_SEGMENTS = np.array([[0, 1], [5, 5], [2, 1]], np.int32)
ATTRS = {"max_ngram_size": N, "n_head_per_ngram": PER, "pad_id": 7}


def _inputs(dtype: type = np.int64, *, past: bool = True, offsets: bool = False, eos: int | None = None,
            segments: bool = False, past_segments: bool = False,
            capture: list[int] | None = None) -> list[np.ndarray | None]:
    info = np.iinfo(dtype)
    return [IDS.astype(dtype), rng.integers(info.min // 2, info.max // 2, N).astype(dtype) | 1,
            rng.integers(5, 1000, HEADS).astype(dtype), CU,
            rng.integers(0, 10, (3, N - 1)).astype(dtype) if past else None,
            rng.integers(0, info.max, HEADS).astype(dtype) if offsets else None,
            None if eos is None else np.array(eos, dtype), SEGMENTS if segments else None,
            PAST_SEGMENTS if past_segments else None, None if capture is None else np.array(capture, np.int32)]


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None], n_out: int) -> OracleCase:
    return OracleCase(OP, {**ATTRS, **attrs}, inputs, (1,), n_out=n_out, oracle="ort", id=ident, domain=DOMAIN)


CASES = [
    _case("int64", {}, _inputs(), 2),
    _case("int32-offsets", {}, _inputs(np.int32, offsets=True), 2),
    _case("no-past", {}, _inputs(past=False), 2),
    _case("eos-reset", {"reset_on_eos": 1}, _inputs(eos=3), 2),
    _case("segments", {}, _inputs(segments=True), 3),
    _case("segments-no-past", {}, _inputs(past=False, segments=True), 3),
    _case("past-segments", {}, _inputs(segments=True, past_segments=True), 3),
    _case("capture", {"state_update_capacity": 4}, _inputs(segments=True, capture=[2, 5, 9]), 4),
    _case("capture-eos", {"state_update_capacity": 2, "reset_on_eos": 1},
          _inputs(np.int32, eos=3, segments=True, past_segments=True, capture=[2, 5, 1]), 4),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_packed_requests_equal_one_call_each() -> None:
    ins = _inputs(eos=3)
    attrs = {**ATTRS, "reset_on_eos": 1}
    packed, present = run(DOMAIN, OP, 1, ins, **attrs, state_update_capacity=0)[:2]
    past = ins[4]
    assert past is not None
    for i in range(3):
        lo, hi = CU[i], CU[i + 1]
        single = run(DOMAIN, "NGramHashMapping", 1,
                     [IDS[None, lo:hi], ins[1], ins[2], past[i:i + 1], None, ins[6], None], **attrs)
        np.testing.assert_array_equal(packed[lo:hi], single[0][0])
        np.testing.assert_array_equal(present[i], single[1][0])


def test_cumulative_lengths_must_cover_the_tokens() -> None:
    ins = _inputs()
    ins[3] = np.array([0, 3, 8], np.int32)
    with pytest.raises(ValueError, match="cumulative_sequence_length"):
        run(DOMAIN, OP, 1, ins, **ATTRS, reset_on_eos=0, state_update_capacity=0)


@pytest.mark.parametrize("segments", [False, True])
def test_shape_formulas_match_onnxruntime(segments: bool) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, _inputs(segments=segments, capture=[1, 1, 1]),
                                           {**ATTRS, "state_update_capacity": 2}, n_out=4 if segments else 2)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[9], [N - 1], [HEADS], [4]], {}, "varlenngramhashmapping_c1", id="multipliers"),
    pytest.param([[9], [N], [HEADS + 1], [4]], {}, "varlenngramhashmapping_c2", id="heads"),
    pytest.param([[9], [N], [HEADS], [4], [2, N - 1]], {}, "varlenngramhashmapping_c3", id="past_batch"),
    pytest.param([[9], [N], [HEADS], [4]], {"state_update_capacity": 2}, "varlenngramhashmapping_c4",
                 id="capture_count"),
    pytest.param([[9], [N], [HEADS], [4], None, None, [1]], {}, "varlenngramhashmapping_c5", id="eos_rank"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {**ATTRS, **attrs})
