"""com.microsoft WordConvEmbedding: the kernel against onnxruntime (windows of 1 to the whole word slot, words
shorter than the window, zeros inside a word, the size attributes given or left off), the shape formula, rejected
nodes. Words of length 0 are left out of the oracle cases: onnxruntime leaves their rows unwritten (reading
wordconvembedding_r1)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_examples_match_kernel_and_formula,
    formula_shapes,
    oracle_tests,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "WordConvEmbedding"
rng = np.random.default_rng(11)
SEQUENCE = np.array([[3, 1, 4, 0, 0], [2, 0, 0, 0, 0], [5, 5, 2, 1, 3], [1, 0, 2, 0, 0]], dtype=np.int32)
VOCABULARY, DEPTH, FILTERS = 6, 3, 4


def weights(window: int) -> list[np.ndarray]:
    w = rng.uniform(-1, 1, (FILTERS, 1, window, DEPTH)).astype(np.float32)
    b = rng.uniform(-1, 1, FILTERS).astype(np.float32)
    c = rng.uniform(-2, 2, (VOCABULARY, DEPTH)).astype(np.float32)
    return [w, b, c]


def attributes(window: int, given: bool) -> dict[str, Any]:
    return {"embedding_size": FILTERS, "conv_window_size": window, "char_embedding_size": DEPTH} if given else {}


CASES = [OracleCase(OP, attributes(window, given), [SEQUENCE, *weights(window)], (1,), oracle="ort",
                    id=f"window{window}-{'attrs' if given else 'bare'}", domain=DOMAIN)
         for window in (1, 2, 3, 5) for given in (False, True)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


def test_shape_formula() -> None:
    assert formula_shapes(version(DOMAIN, OP, 1), [SEQUENCE, *weights(2)], attributes(2, True)) == [[4, FILTERS]]


@pytest.mark.parametrize(("attrs", "window", "ids", "check"), [
    ({"embedding_size": 3}, 2, SEQUENCE, "wordconvembedding_c1"),
    ({"conv_window_size": 3}, 2, SEQUENCE, "wordconvembedding_c2"),
    ({"char_embedding_size": 2}, 2, SEQUENCE, "wordconvembedding_c3"),
    ({}, 6, SEQUENCE, "wordconvembedding_c4"),
    ({}, 2, SEQUENCE + 3, "wordconvembedding_c5"),
])
def test_invalid_node_is_reported(attrs: dict[str, Any], window: int, ids: np.ndarray, check: str) -> None:
    w, b, c = weights(window)
    checks = problem_checks(version(DOMAIN, OP, 1), [ids, w, b, c], attrs, {"Sequence": ids.ravel().tolist()})
    assert check in checks, checks
