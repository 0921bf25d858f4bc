"""com.microsoft BifurcationDetector: the kernel against onnxruntime (with and without pred_tokens; predictions
agreeing with the source for none, some and all of their tokens; previous match at the start, inside and at the end
of the source; n-grams found once, several times, at the source's end and nowhere; n-gram size ranges), both
outputs' shapes against onnxruntime's, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_examples_match_kernel_and_formula,
    formula_shapes,
    one_node_model,
    oracle_tests,
    problem_checks,
    run_onnxruntime,
    version,
)

DOMAIN = "com.microsoft"
OP = "BifurcationDetector"


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


SRC = i64(4, 7, 2, 9, 4, 7, 3, 8, 2, 9)
# (name, src, cur, prev, pred): pred holds len(src) + 1 - prev tokens
SCENARIOS: list[tuple[str, np.ndarray, np.ndarray, int, np.ndarray | None]] = [
    ("no-pred-once", SRC, i64(1, 4, 7, 3), 0, None),          # 3, (7, 3), (4, 7, 3) once; (1, 4, 7, 3) nowhere
    ("no-pred-twice-then-once", SRC, i64(9, 4, 7), 0, None),  # 7, (4, 7) twice; (9, 4, 7) once
    ("no-pred-to-end", SRC, i64(1, 8, 2, 9), 0, None),       # 9, (2, 9) twice; (8, 2, 9) ends the source
    ("no-pred-once-short", SRC, i64(4, 7, 2), 0, None),      # 2 twice; (7, 2), (4, 7, 2) once
    ("no-pred-absent", SRC, i64(1, 5), 0, None),
    ("pred-agrees-partly", SRC, i64(1), 3, i64(9, 4, 7, 2, 0, 0, 0, 0)),
    ("pred-disagrees-at-once", SRC, i64(1, 2), 2, i64(5, 9, 4, 7, 3, 8, 2, 9, 1)),
    ("pred-agrees-wholly", SRC, i64(0), 6, i64(3, 8, 2, 9, 5)),
    ("pred-from-start", SRC, i64(0, 1), 0, np.concatenate([SRC[:6], i64(8, 1, 1, 1, 1)])),
    ("pred-at-source-end", SRC, i64(2, 9), 10, i64(7)),
]
ATTRS: list[dict[str, Any]] = [{}, {"min_ngram_size": 1, "max_ngram_size": 1},
                               {"min_ngram_size": 1, "max_ngram_size": 2}, {"min_ngram_size": 2, "max_ngram_size": 6},
                               {"min_ngram_size": 3, "max_ngram_size": 3}]


def inputs(src: np.ndarray, cur: np.ndarray, prev: int, pred: np.ndarray | None) -> list[np.ndarray | None]:
    return [src, cur, np.array(prev, np.int64), pred]


CASES = [OracleCase(OP, attrs, inputs(src, cur, prev, pred), (1,), n_out=2, oracle="ort", id=f"{name}-{k}",
                    domain=DOMAIN) for name, src, cur, prev, pred in SCENARIOS for k, attrs in enumerate(ATTRS)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_shape_formulas_match_onnxruntime(scenario: tuple[str, np.ndarray, np.ndarray, int,
                                                          np.ndarray | None]) -> None:
    _, src, cur, prev, pred = scenario
    xs = inputs(src, cur, prev, pred)
    values = {"src_tokens": src.tolist(), "prev_suffix_match_idx": [prev]}
    if pred is not None:
        values["pred_tokens"] = pred.tolist()
    mine = formula_shapes(version(DOMAIN, OP, 1), xs, {}, values)
    model, feeds = one_node_model(OP, 1, xs, {}, 2, domain=DOMAIN)
    assert mine == [list(y.shape) for y in run_onnxruntime(model, feeds)]


@pytest.mark.parametrize(("attrs", "prev", "pred_len", "check"), [
    ({"min_ngram_size": 4, "max_ngram_size": 3}, [0], 11, "bifurcationdetector_c1"),
    ({}, [0, 1], None, "bifurcationdetector_c2"),
    ({}, [11], 1, "bifurcationdetector_c3"),
    ({}, [2], 8, "bifurcationdetector_c4"),
    ({"min_ngram_size": 0}, [0], None, "range"),
])
def test_invalid_node_is_reported(attrs: dict[str, Any], prev: list[int], pred_len: int | None, check: str) -> None:
    shapes = [[10], [3], [len(prev)] if len(prev) > 1 else [], None if pred_len is None else [pred_len]]
    checks = problem_checks(version(DOMAIN, OP, 1), shapes, attrs, {"prev_suffix_match_idx": prev})
    assert any(check in c for c in checks), checks
