"""IsInf: the kernel against onnx.reference and onnxruntime for each setting of detect_positive and
detect_negative (float, double; float16 from opset 20), and against comparisons in Python; the shape formula
against onnx's shape inference; a flag outside {0, 1} reported."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.helpers import Seeded, all_since, oracle_tests, rejection_tests, run, shape_case, shape_tests
from tests.helpers.unary import unary_cases, unary_shape_cases

OP = "IsInf"
RAND = Seeded(723)
X = RAND.f32(4, 5) * 1e4
X[RAND.ints(0, 3, (4, 5), np.int8) == 1] = np.inf
X[RAND.ints(0, 3, (4, 5), np.int8) == 1] = -np.inf
X[0, :4] = [np.nan, np.finfo(np.float32).max, -np.finfo(np.float32).max, -0.0]
FLAGS = [dict(detect_positive=p, detect_negative=n) for p, n in itertools.product((0, 1), repeat=2)]
F16_FROM = 20  # float16 joins T1 at opset 20

CASES = [case for flags in [{}, *FLAGS] for case in (
    *unary_cases(OP, X, (np.float32, np.float64), attrs=flags, ort=all_since(OP), ort_dtypes=(np.float32, np.float64),
                 id="-".join(f"{k[7:10]}{v}" for k, v in flags.items()) or "defaults"),
    *unary_cases(OP, X, (np.float16,), attrs=flags, versions=all_since(OP, F16_FROM), ort=all_since(OP, F16_FROM),
                 ort_dtypes=(np.float16,), id="-".join(f"{k[7:10]}{v}" for k, v in flags.items()) or "defaults"),
)]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


test_shape_formula_matches_onnx = shape_tests([*unary_shape_cases(OP), *unary_shape_cases(OP, attrs=FLAGS[1])])


REJECTED = [
    (shape_case(OP, 10, [[2, 3]], {"detect_positive": 2}), "attr_allowed"),
    (shape_case(OP, 20, [[2, 3]], {"detect_negative": -1}), "attr_allowed"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: f"pos{f['detect_positive']}-neg{f['detect_negative']}")
@pytest.mark.parametrize("since", all_since(OP))
def test_kernel_matches_comparisons(since: int, flags: dict[str, int]) -> None:
    for dtype in (np.float32, np.float64, *((np.float16,) if since >= F16_FROM else ())):
        with np.errstate(over="ignore"):  # float32's max is +-inf in float16
            x = X.astype(dtype)
        got = run("ai.onnx", OP, since, [x], **flags)[0]
        want = [[(v == np.inf and flags["detect_positive"] == 1) or (v == -np.inf and flags["detect_negative"] == 1)
                 for v in row] for row in x.tolist()]
        assert got.dtype == np.bool_ and got.tolist() == want, (dtype, got)
