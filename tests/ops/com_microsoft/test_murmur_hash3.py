"""com.microsoft MurmurHash3: the kernel against onnxruntime (every input type, positive 0 and 1, seeds), the shape
and type formula, rejected attributes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_examples_match_kernel_and_formula,
    assert_shapes_match_onnxruntime,
    inferred,
    oracle_tests,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "MurmurHash3"
rng = np.random.default_rng(3)
i32 = rng.integers(-2**31, 2**31 - 1, (3, 4), dtype=np.int64)
NUMBERS = {
    "int32": i32.astype(np.int32), "uint32": i32.astype(np.uint32), "int64": i32 * 65537,
    "uint64": (i32 * 65537).astype(np.uint64), "float": Seeded(4).f32(3, 4),
    "double": Seeded(5).f32(5).astype(np.float64),
}
WORDS = np.array([["", "a", "ab"], ["abc", "abcd", "élan 漢字"]], dtype=object)
ATTRS: list[dict[str, Any]] = [{}, {"positive": 0}, {"seed": 42}, {"positive": 0, "seed": 4294967295}]

CASES = [OracleCase(OP, attrs, [x], (1,), oracle="ort", id=f"{name}-{k}", domain=DOMAIN)
         for name, x in [*NUMBERS.items(), ("string", WORDS)] for k, attrs in enumerate(ATTRS)]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_examples() -> None:
    assert_examples_match_kernel_and_formula(DOMAIN, OP)


@pytest.mark.parametrize("positive", [0, 1])
def test_shape_and_type_formula_match_onnxruntime(positive: int) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [WORDS], {"positive": positive})
    result = inferred(version(DOMAIN, OP, 1), [[2, 3]], {"positive": positive})
    assert result.types == ["tensor(uint32)" if positive else "tensor(int32)"]


@pytest.mark.parametrize(("attrs", "check"), [({"positive": 2}, "allowed"), ({"seed": -1}, "range")])
def test_invalid_attribute_is_reported(attrs: dict[str, Any], check: str) -> None:
    assert any(check in c for c in problem_checks(version(DOMAIN, OP, 1), [[2]], attrs))
