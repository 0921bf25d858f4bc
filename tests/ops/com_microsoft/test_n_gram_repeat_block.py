"""com.microsoft NGramRepeatBlock: the kernel against onnxruntime (ngram_size 1 to 5, rows with several, one and no
repeated n-gram prefix, rows shorter than the n-gram, a batch whose rows differ), the shape formula against
onnxruntime's, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "NGramRepeatBlock"
VOCAB = 9
SCORES = Seeded(21).f32(3, VOCAB)
IDS = {
    "repeats": np.array([[1, 2, 3, 1, 2, 4, 1, 2], [5, 5, 5, 5, 5, 5, 5, 5], [0, 8, 7, 6, 5, 4, 3, 2]], np.int64),
    "cycle": np.array([[3, 1, 4, 3, 1, 4, 3, 1], [2, 7, 2, 7, 2, 7, 0, 2], [8, 0, 8, 0, 8, 1, 8, 0]], np.int64),
    "short": np.array([[4, 4], [1, 2], [6, 6]], np.int64),
    "one": np.array([[7], [0], [3]], np.int64),
}
SIZES = [1, 2, 3, 4, 5]

CASES = [OracleCase(OP, {"ngram_size": n}, [ids, SCORES], (1,), oracle="ort", id=f"{name}-n{n}", domain=DOMAIN)
         for name, ids in IDS.items() for n in SIZES]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_cases_ban_tokens() -> None:
    """The cases are telling: some ban tokens (a kernel that bans nothing fails), and not all of them."""
    banned = [int(np.isneginf(run(DOMAIN, OP, 1, [ids, SCORES], ngram_size=n)[0]).sum())
              for ids in IDS.values() for n in SIZES]
    assert any(banned) and not all(banned), banned


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize("name", list(IDS))
def test_shape_formula_matches_onnxruntime(name: str) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [IDS[name], SCORES], {"ngram_size": 2})


def test_token_outside_the_vocabulary_is_reported() -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [[1, 3], [1, 4]], {"ngram_size": 2}, {"input_ids": [1, 4, 1]})
    assert "ngramrepeatblock_c1" in checks, checks


def test_non_positive_ngram_size_is_reported() -> None:
    checks = problem_checks(version(DOMAIN, OP, 1), [[1, 3], [1, 4]], {"ngram_size": 0})
    assert any("range" in c for c in checks), checks
