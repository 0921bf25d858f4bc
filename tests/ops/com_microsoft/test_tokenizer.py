"""com.microsoft Tokenizer: the kernel against onnxruntime (character mode, separators, separators that match the
empty string, tokenexp, marks, mincharnum, [C] and [N, C] inputs), the shape formula, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_shapes_match_onnxruntime,
    inferred,
    oracle_tests,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "Tokenizer"
TEXT = np.array([["Hello World", "a b", "bb"], ["I love computer science !", "", "xyz  q"]], dtype=object)
ROW = np.array(["Hello World", "ab ba", "élan 漢字"], dtype=object)
BASE = {"mark": 0, "mincharnum": 1, "pad_value": "#"}

ATTRS: list[tuple[str, dict[str, Any]]] = [
    ("space", {"separators": [" "]}),
    ("space-mark-min2", {**BASE, "mark": 1, "mincharnum": 2, "separators": [" "]}),
    ("two-separators", {"separators": [" ", "o"]}),
    ("chars", {"separators": [""]}),
    ("tokenexp-words", {"tokenexp": "[a-zA-Z]+"}),
    ("tokenexp-min3", {"mincharnum": 3, "tokenexp": "[a-z]+"}),
    # separators that match the empty string: onnxruntime accepts them; an empty match drops the character after
    # it, so one that matches it everywhere leaves no token, '^' only the text's first character
    ("empty-twice", {"separators": ["", ""]}),
    ("empty-star", {"separators": ["b*"]}),
    ("empty-after-space", {"separators": [" ", "x?"]}),
    ("caret", {"separators": ["^"]}),
    ("caret-then-space", {"separators": ["^", " "]}),
    ("space-then-caret-min2", {"mincharnum": 2, "separators": [" ", "^"]}),
    ("caret-mark", {"mark": 1, "separators": ["^"]}),
]

CASES = [OracleCase(OP, {**BASE, **attrs}, [x], (1,), oracle="ort", id=f"{name}-{len(x.shape)}d", domain=DOMAIN)
         for name, attrs in ATTRS for x in (TEXT, ROW)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("shape", [[0], [2, 0], [0, 3]])
def test_empty_input_shape_matches_onnxruntime(shape: list[int]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [np.zeros(shape, dtype=object)], {**BASE, "separators": [" "]})


def test_shape_formula_adds_a_token_axis_and_accepts_empty_matching_separators() -> None:
    attrs = {**BASE, "separators": ["", ""]}
    result = inferred(version(DOMAIN, OP, 1), [[2, 3]], attrs)
    assert not result.problems
    shape = result.outputs[0]
    assert shape is not None and len(shape) == 3 and [str(d) for d in shape[:2]] == ["2", "3"]


@pytest.mark.parametrize(("shape", "attrs", "check"), [
    ([2, 3, 4], {"separators": [" "]}, "tokenizer_c1"),
    ([3], {}, "tokenizer_c2"),
    ([3], {"separators": []}, "tokenizer_c3"),
    ([3], {"tokenexp": ""}, "tokenizer_c4"),
    ([3], {"mincharnum": 2, "separators": [""]}, "tokenizer_c5"),
])
def test_invalid_node_is_reported(shape: list[int], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), [shape], {**BASE, **attrs})
