"""com.microsoft NGramHashMapping: the kernel against onnxruntime's CPU kernel (int32 and int64 ids with wrapping
products, past_ids, head_offsets, EOS fill and reset, packed segments), the shape formulas against onnxruntime,
rejected nodes under their constraint ids, a hash by hand, and chunked calls equal to one call."""

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
OP = "NGramHashMapping"
rng = np.random.default_rng(53)
B, S, N, PER = 2, 7, 3, 2
HEADS = (N - 1) * PER
IDS = np.array([[1, 3, 5, 6, 3, 8, 9], [3, 2, 4, 5, 6, 3, 1]])
SEGMENTS = np.array([[0, 0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 1, 1, 3]], np.int32)


def _inputs(dtype: type, *, past: bool = True, offsets: bool = False, eos: int | None = None,
            segments: bool = False) -> list[np.ndarray | None]:
    info = np.iinfo(dtype)
    return [IDS.astype(dtype), rng.integers(info.min // 2, info.max // 2, N + 1).astype(dtype) | 1,
            rng.integers(5, 1000, HEADS).astype(dtype), rng.integers(0, 10, (B, N - 1)).astype(dtype) if past else None,
            rng.integers(0, info.max, HEADS).astype(dtype) if offsets else None,
            None if eos is None else np.array(eos, dtype), SEGMENTS if segments else None]


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None]) -> OracleCase:
    return OracleCase(OP, {"max_ngram_size": N, "n_head_per_ngram": PER, "pad_id": 7, **attrs}, inputs, (1,), n_out=2,
                      oracle="ort", id=ident, domain=DOMAIN)


CASES = [
    _case("int64", {}, _inputs(np.int64)),
    _case("int32-wrapping", {}, _inputs(np.int32)),
    _case("no-past", {}, _inputs(np.int64, past=False)),
    _case("head-offsets-wrap", {}, _inputs(np.int32, offsets=True)),
    _case("eos-fill", {}, _inputs(np.int64, past=False, eos=3)),
    _case("eos-reset", {"reset_on_eos": 1}, _inputs(np.int64, eos=3)),
    _case("eos-reset-no-past", {"reset_on_eos": 1}, _inputs(np.int32, past=False, eos=3)),
    _case("segments", {}, _inputs(np.int64, segments=True)),
    _case("segments-eos-reset", {"reset_on_eos": 1}, _inputs(np.int64, eos=3, segments=True)),
    _case("order-4", {"max_ngram_size": 4, "n_head_per_ngram": 1},
          [IDS.astype(np.int64), np.array([3, 5, 7, 11], np.int64), np.array([97, 89, 83], np.int64), None, None,
           None, None]),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_hash_by_hand() -> None:
    """Bigram (n = 2) of ids [4, 6] with pad 1 before them: mixes 4*3 ^ 1*5 = 9 and 6*3 ^ 4*5 = 6, mod 7 and 5."""
    ids = np.array([[4, 6]], np.int64)
    got, present = run(DOMAIN, OP, 1, [ids, np.array([3, 5], np.int64), np.array([7, 5], np.int64), None, None, None,
                                       None], max_ngram_size=2, n_head_per_ngram=2, pad_id=1, reset_on_eos=0)
    np.testing.assert_array_equal(got, [[[9 % 7, 9 % 5], [6 % 7, 6 % 5]]])
    np.testing.assert_array_equal(present, [[6]])


def test_chunks_threaded_through_past_ids_equal_one_call() -> None:
    ins = _inputs(np.int64, past=False, eos=3)
    attrs = {"max_ngram_size": N, "n_head_per_ngram": PER, "pad_id": 7, "reset_on_eos": 1}
    whole = run(DOMAIN, OP, 1, ins, **attrs)[0]
    first, present = run(DOMAIN, OP, 1, [IDS[:, :3], *ins[1:]], **attrs)
    second = run(DOMAIN, OP, 1, [IDS[:, 3:], ins[1], ins[2], present, *ins[4:]], **attrs)[0]
    np.testing.assert_array_equal(np.concatenate([first, second], axis=1), whole)


@pytest.mark.parametrize("past", [False, True])
def test_shape_formulas_match_onnxruntime(past: bool) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, _inputs(np.int64, past=past),
                                           {"max_ngram_size": N, "n_head_per_ngram": PER, "pad_id": 0}, n_out=2)


@pytest.mark.parametrize(("shapes", "check"), [
    pytest.param([[B, S], [N - 1], [HEADS]], "ngramhashmapping_c1", id="multipliers"),
    pytest.param([[B, S], [N], [HEADS + 1]], "ngramhashmapping_c2", id="heads"),
    pytest.param([[B, S], [N], [HEADS], [B, N]], "ngramhashmapping_c3", id="past"),
    pytest.param([[B, S], [N], [HEADS], None, None, [1]], "ngramhashmapping_c4", id="eos_rank"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], check: str) -> None:
    attrs = {"max_ngram_size": N, "n_head_per_ngram": PER, "pad_id": 0}
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
