"""RegexFullMatch: the kernel against onnxruntime (RE2 itself) on patterns that RE2 and Python's `re` read
differently, on random patterns like the strategy's, the patterns the registry rejects, the shape formula and the
missing pattern."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.kernels.ai_onnx._re2 import to_python
from conformance.strategies.hint_regex import UNIVERSE, near_miss, random_pattern, sample
from tests.helpers import (
    OracleCase,
    all_since,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    strs,
)

OP = "RegexFullMatch"
V = all_since(OP)
TEXTS = strs("", "a", "A", "ab", "aB", "abc", "a\n", "a\nb", "1", "\u0661", "_", "é", "É", "x y", "x\ty", "x\vy",
             "www.x.com", "a.b", "k", "\u212a", "{", "x{,3}", "xx", "éA", "-", "]", "a-b", "\x07", "σ", "Σ",
             shape=(6, 5))
# (pattern, why it is telling)
TELLING = [
    (r"\d", "ASCII digits only: no Arabic-Indic one"),
    (r"\w+", "ASCII word characters only"),
    (r"x\sy", "no vertical tab in \\s"),
    (r"\bab\b", "ASCII word boundaries"),
    (r"a\B.", "ASCII non-boundary"),
    (r"a$", "$ only at the very end"),
    (r"(?m)a$\n?b?", "multi-line $ before a newline"),
    (r"(?i)ab", "case folding"),
    (r"a(?i)b|c", "a flag after the start spans the alternatives of its group"),
    (r"x{,3}", "no repetition: literal braces"),
    (r"\x{e9}\101", "hex and octal escapes"),
    (r"[[:alpha:]]+", "POSIX class"),
    (r"[[:punct:]]", "POSIX punctuation"),
    (r"\Qa.b\E", "quoting"),
    (r"[]a]", "a leading ] is literal"),
    (r"[^]a]", "a negated leading ] is literal"),
    (r"[\d-]", "a class escape then a literal -"),
    (r"(?:a|b)c", "a non-capturing group"),
    (r"(?P<n>a)b|(?<m>x)y", "named groups"),
    (r"(?s).", "dot matches newline"),
    (r"\Aa\z", "text anchors"),
    (r"(?i)[a-c]+", "case folding of a range"),
    (r"(?i-s:a.)", "a scoped flag group with a negation"),
    (r"\012|\0", "octal escapes"),
]

CASES = [OracleCase(OP, {"pattern": p}, [TEXTS], V, oracle="ort", id=f"p{i}") for i, (p, _) in enumerate(TELLING)]
CASES.append(OracleCase(OP, {"pattern": r"www\.[\w.-]+\.\bcom\b"}, [TEXTS], V, oracle="ref", id="onnx_example"))

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _random_cases(count: int) -> list[OracleCase]:
    rng = np.random.default_rng(20)
    cases = []
    for i in range(count):
        text, tree, icase = random_pattern(rng)
        values = []
        for _ in range(8):
            found = sample(tree, rng, icase)
            values.append(found if rng.integers(0, 2) else near_miss(rng, found))
        values.append("".join(UNIVERSE[int(k)] for k in rng.integers(0, len(UNIVERSE), size=3)))
        cases.append(OracleCase(OP, {"pattern": text}, [strs(*values)], V, oracle="ort", id=f"random{i}"))
    return cases


@pytest.mark.parametrize("case", _random_cases(40), ids=lambda c: c.id)
def test_random_patterns_match_as_re2_does(case: OracleCase) -> None:
    from tests.helpers import assert_matches_oracle

    assert_matches_oracle(case, 20)


RE2_REJECTS = [r"(a)\1", "(?=a)", "(?!a)b", "(?<=a)b", "(?>a)", "a**", "a*+", "*a", "a{1001}", "a{3,2}", r"\Z",
               "(?#c)a", "(?(1)a|b)", "(a", "a)", "[a", r"\e", "[b-a]"]
NO_PYTHON_EQUIVALENT = [r"\pL", r"\p{Greek}", r"\PN", "(?U)a+", r"\C", "[[:^alpha:]]", r"[\D]", r"[\W]", r"[\S]"]


@pytest.mark.parametrize("pattern", RE2_REJECTS + NO_PYTHON_EQUIVALENT)
def test_patterns_the_registry_rejects(pattern: str) -> None:
    with pytest.raises(ValueError, match="RegexFullMatch"):
        run("ai.onnx", OP, 20, [strs("a")], pattern=pattern)


def test_translation_of_a_flag_group_after_the_start() -> None:
    assert to_python("x(?i)a|b") == "x(?i:a)|(?i:b)"
    assert to_python("(x(?i)a|b)c") == "(x(?i:a)|(?i:b))c"


SHAPES = [
    shape_case(OP, 20, [[3, 2]], {"pattern": "a"}, dtype=object),
    shape_case(OP, 20, [[]], {"pattern": "a"}, dtype=object),
]
REJECTED = [(shape_case(OP, 20, [[3]], {}, dtype=object), "regexfullmatch_c1")]

test_shape_formula_matches_onnx = shape_tests(SHAPES)
test_invalid_node_reports_the_check = rejection_tests(REJECTED)
