"""Normalizer: the kernel against onnxruntime (every norm, type and rank) and onnx.reference (where it reads
the text as we do), the shape formula against onnxruntime, rejected ranks, the MAX reading."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    inferred,
    oracle_tests,
    rejection_tests,
    shape_case,
    version,
)

DOMAIN = "ai.onnx.ml"
OP = "Normalizer"
data = Seeded(43)
MIXED = np.array([[-4, 1, 2], [0, 0, 0], [-1, -2, -0.5], [3, 0, -3]], np.float32)


def case(x: np.ndarray, norm: str, id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, {"norm": norm}, [x], (1,), oracle=oracle, id=id, domain=DOMAIN)


CASES = [case(MIXED, norm, f"{norm.lower()}_signs_zero_row") for norm in ("MAX", "L1", "L2")]
CASES += [
    case(data.f32(5), "L2", "vector"),
    case(data.f32(3, 4).astype(np.float64), "L1", "double"),
    case(data.ints(-6, 6, (3, 5), np.int64), "L2", "int64"),
    case(data.ints(-6, 6, (3, 5), np.int32), "MAX", "int32"),
    # onnx.reference agrees where no row holds a negative value under MAX
    case(MIXED, "L1", "l1_ref", oracle="ref"),
    case(MIXED, "L2", "l2_ref", oracle="ref"),
    case(np.abs(data.f32(3, 4)), "MAX", "max_positive_ref", oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("x", [data.f32(4), data.f32(3, 4)], ids=["v1-vector", "v1-matrix"])
def test_shape_formula_matches_onnxruntime(x: np.ndarray) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [x], {"norm": "L2"})


REJECTED = [(shape_case(OP, 1, [shape], domain=DOMAIN), "normalizer_c1") for shape in ([], [2, 3, 4])]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_the_max_reading_holds_only_for_a_negative_value_under_max() -> None:
    v = version(DOMAIN, OP, 1)

    def readings(x: np.ndarray, norm: str) -> list[str]:
        result = inferred(v, [x], {"norm": norm}, {"X": x.reshape(-1).tolist()})
        return [r.reading.id for r in result.readings]

    signed = np.array([[3, -4], [1, 2]], np.int64)
    assert readings(signed, "MAX") == ["normalizer_r1"]
    assert readings(np.abs(signed), "MAX") == []
    assert readings(np.array([[4, -3], [1, 2]], np.int64), "MAX") == []  # max(X) = max(|X|) in every row
    assert readings(np.array([-1.0, -2.0], np.float32), "MAX") == ["normalizer_r1"]
    assert readings(signed, "L1") == []
