"""TfIdfVectorizer: the kernel against onnxruntime (every mode, skips, strings) and onnx.reference (TF mode, where it
follows the text), random pools like the strategy's, the shape formula, the constraints, the reading."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.runner.readings import followed_reading
from tests.helpers import (
    OracleCase,
    all_since,
    assert_matches_oracle,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    strs,
    version,
)

OP = "TfIdfVectorizer"
V = all_since(OP)
X = np.array([1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8], dtype=np.int32)
POOL = {"ngram_counts": [0, 4], "ngram_indexes": [0, 1, 2, 3, 4, 5, 6], "pool_int64s": [2, 3, 5, 4, 5, 6, 7, 8, 6, 7]}
BIGRAMS = {"mode": "TF", "min_gram_length": 2, "max_gram_length": 2, **POOL}
UNI_BI = {"mode": "TF", "min_gram_length": 1, "max_gram_length": 2, **POOL}
WEIGHTS = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0]
STRINGS = {"mode": "TFIDF", "min_gram_length": 1, "max_gram_length": 2, "max_skip_count": 2, "ngram_counts": [0, 2],
           "ngram_indexes": [3, 0, 1, 2], "pool_strings": ["a", "é", "a", "b", "b", "é"],
           "weights": [1.0, 2.0, 0.5, 0.25]}

CASES = [
    OracleCase(OP, {**BIGRAMS, "max_skip_count": 0}, [X], V, id="bigrams_skip0"),
    OracleCase(OP, {**BIGRAMS, "max_skip_count": 5}, [X.reshape(2, 6)], V, id="batch_skip5"),
    OracleCase(OP, {**UNI_BI, "max_skip_count": 5}, [X], V, id="uni_bi_skip5"),
    OracleCase(OP, {**UNI_BI, "max_skip_count": 3}, [X.astype(np.int64).reshape(3, 4)], V, id="int64"),
    OracleCase(OP, {**UNI_BI, "mode": "IDF", "max_skip_count": 2, "weights": WEIGHTS}, [X], V, id="idf",
               oracle="ort"),
    OracleCase(OP, {**UNI_BI, "mode": "TFIDF", "max_skip_count": 2, "weights": WEIGHTS}, [X.reshape(2, 6)], V,
               id="tfidf", oracle="ort"),
    OracleCase(OP, {**UNI_BI, "mode": "TFIDF", "max_skip_count": 1}, [X], V, id="tfidf_unweighted", oracle="ort"),
    OracleCase(OP, {**UNI_BI, "max_skip_count": 0, "ngram_indexes": [6, 0, 5, 1, 4, 2, 3]}, [X], V,
               id="permuted", oracle="ort"),
    OracleCase(OP, {**UNI_BI, "max_skip_count": 0, "ngram_indexes": [0, 0, 1, 1, 2, 2, 9]}, [X], V,
               id="shared_coordinates_tf", oracle="ort"),
    OracleCase(OP, STRINGS, [strs("a", "b", "a", "b", "é", shape=(1, 5))], V, id="strings", oracle="ort"),
    OracleCase(OP, {**STRINGS, "mode": "TF"}, [strs("b", "é", "a", "a")], V, id="strings_tf"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _random_case(rng: np.random.Generator, i: int) -> OracleCase:
    """A pool of distinct n-grams over a small vocabulary, drawn as the strategy's hint does (without weights
    shared by two coordinates in IDF mode: onnxruntime's reading)."""
    vocab = 5
    longest = int(rng.integers(1, 4))
    pool: list[int] = []
    counts: list[int] = []
    for n in range(1, longest + 1):
        counts.append(len(pool))
        grams = {tuple(int(v) for v in rng.integers(0, vocab, size=n)) for _ in range(int(rng.integers(1, 4)))}
        pool += [v for gram in sorted(grams) for v in gram]
    total = sum((b - a) // (k + 1) for k, (a, b) in enumerate(zip(counts, [*counts[1:], len(pool)], strict=True)))
    attrs: dict[str, Any] = {
        "mode": ["TF", "IDF", "TFIDF"][i % 3], "min_gram_length": int(rng.integers(1, longest + 1)),
        "max_gram_length": longest, "max_skip_count": int(rng.integers(0, 3)), "ngram_counts": counts,
        "ngram_indexes": [int(v) for v in rng.permutation(total + 2)[:total]], "pool_int64s": pool}
    if rng.integers(0, 2):
        attrs["weights"] = [float(w) for w in rng.integers(1, 9, size=total) / 4]
    x = rng.integers(0, vocab, size=(2, int(rng.integers(1, 9)))).astype(np.int64)
    return OracleCase(OP, attrs, [x if rng.integers(0, 2) else x[0]], V, oracle="ort", id=f"random{i}")


@pytest.mark.parametrize("case", [_random_case(np.random.default_rng(i), i) for i in range(30)], ids=lambda c: c.id)
def test_random_pools_count_as_onnxruntime_does(case: OracleCase) -> None:
    assert_matches_oracle(case, 9)


def test_a_unigram_is_counted_once_per_position_whatever_the_skips() -> None:
    attrs = {"mode": "TF", "min_gram_length": 1, "max_gram_length": 1, "ngram_counts": [0], "ngram_indexes": [0],
             "pool_int64s": [3]}
    for skip in (0, 4):
        (y,) = run("ai.onnx", OP, 9, [X], max_skip_count=skip, **attrs)
        assert y.tolist() == [3.0]


def test_reading_r1_holds_for_shared_coordinates_in_idf_mode_only() -> None:
    v = version("ai.onnx", OP, 9)
    shared = {**UNI_BI, "mode": "IDF", "max_skip_count": 0, "ngram_indexes": [0, 0, 1, 1, 2, 2, 3],
              "weights": None, "pool_strings": None}
    found = followed_reading(v, [X], shared, [[4]])
    assert found is not None and found.startswith("tfidfvectorizer_r1")
    assert followed_reading(v, [X], {**shared, "mode": "TFIDF"}, [[4]]) is None
    assert followed_reading(v, [X], {**shared, "ngram_indexes": [0, 1, 2, 3, 4, 5, 6]}, [[7]]) is None


SHAPES = [
    shape_case(OP, 9, [[12]], {**UNI_BI, "max_skip_count": 1}, dtype=np.int32),
    shape_case(OP, 9, [[3, 4]], {**UNI_BI, "max_skip_count": 1, "ngram_indexes": [0, 9, 2, 3, 4, 5, 6]},
               dtype=np.int64),
    shape_case(OP, 9, [[2, 5]], STRINGS, dtype=object),
]
REJECTED = [
    (shape_case(OP, 9, [[2, 3, 4]], UNI_BI | {"max_skip_count": 0}, dtype=np.int64), "tfidfvectorizer_c1"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "min_gram_length": 3}, dtype=np.int64),
     "tfidfvectorizer_c2"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "pool_strings": ["a"]}, dtype=np.int64),
     "tfidfvectorizer_c3"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "ngram_counts": [0, 12]}, dtype=np.int64),
     "tfidfvectorizer_c4"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "ngram_counts": [0, 5]}, dtype=np.int64),
     "tfidfvectorizer_c5"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "ngram_indexes": [0, 1]}, dtype=np.int64),
     "tfidfvectorizer_c6"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "weights": [1.0]}, dtype=np.int64),
     "tfidfvectorizer_c7"),
    (shape_case(OP, 9, [[4]], UNI_BI | {"max_skip_count": 0, "pool_int64s": [2, 2, 5, 4, 5, 6, 7, 8, 6, 7]},
                dtype=np.int64), "tfidfvectorizer_c8"),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
