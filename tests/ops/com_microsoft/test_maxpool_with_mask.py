"""com.microsoft MaxpoolWithMask: the kernel against onnxruntime's CPU kernel (1 to 3 spatial axes; masks of X's
N and C and smaller ones read by modulo; windows cut short by zeros, at index 0 too; pads, strides and each
auto_pad; all-masked windows; NaN), the shape formula, and rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_shapes_match_onnxruntime,
    oracle_tests,
    problem_checks,
    version,
)

DOMAIN = "com.microsoft"
OP = "MaxpoolWithMask"
data = Seeded(43)
SPATIAL = {1: [7], 2: [5, 6], 3: [4, 5, 3]}


def mask(shape: list[int], zeros: float = 0.3) -> np.ndarray:
    return (data.rng.random(shape) >= zeros).astype(np.int32)


def case(inputs: list[np.ndarray], attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=1e-6, id=id, domain=DOMAIN)


def spatial_cases(r: int) -> list[OracleCase]:
    s = SPATIAL[r]
    x = data.f32(2, 3, *s)
    k2, k3 = [2] * r, [3] * r
    return [
        case([x, mask([2, 3, *s])], {"kernel_shape": k2}, f"{r}d_full_mask"),
        case([x, mask([1, 1, *s])], {"kernel_shape": k2}, f"{r}d_mask_1x1"),
        case([x, mask([1, 2, *s])], {"kernel_shape": k3, "strides": [2] * r}, f"{r}d_mask_1x2_strided"),
        case([x, mask([3, 1, *s], 0.5)], {"kernel_shape": k3, "pads": [1] * r + [2] * r}, f"{r}d_pads"),
        case([x, mask([2, 3, *s])], {"kernel_shape": k2, "auto_pad": "SAME_UPPER"}, f"{r}d_same_upper"),
        case([x, mask([2, 3, *s])], {"kernel_shape": k3, "auto_pad": "SAME_LOWER", "strides": [2] * r},
             f"{r}d_same_lower"),
        case([x, mask([2, 3, *s])], {"kernel_shape": k2, "auto_pad": "VALID", "strides": [3] * r}, f"{r}d_valid"),
        case([x, np.zeros([2, 3, *s], np.int32)], {"kernel_shape": k2}, f"{r}d_all_masked"),
        case([x, np.ones([2, 3, *s], np.int32)], {"kernel_shape": k2, "storage_order": 1}, f"{r}d_unmasked"),
    ]


FIRST_ZERO = np.ones([1, 1, 4, 4], np.int32)
FIRST_ZERO[0, 0, 0, 0] = 0  # flat index 0: never a stop with 2 spatial axes
NAN_X = data.f32(1, 2, 4, 4)
NAN_X[0, 0, 1, 1] = np.nan

CASES = [
    *(c for r in (1, 2, 3) for c in spatial_cases(r)),
    case([data.f32(1, 2, 4, 4), FIRST_ZERO], {"kernel_shape": [2, 2]}, "2d_zero_at_index_0"),
    case([data.f32(1, 2, 5), np.array([[[0, 1, 1, 1, 1]]], np.int32)], {"kernel_shape": [2]}, "1d_zero_at_index_0"),
    case([NAN_X, np.ones([1, 2, 4, 4], np.int32)], {"kernel_shape": [2, 2]}, "nan"),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("r", "attrs"), [
    pytest.param(1, {"kernel_shape": [3], "strides": [2], "pads": [1, 2]}, id="1d"),
    pytest.param(2, {"kernel_shape": [3, 2], "auto_pad": "SAME_UPPER", "strides": [2, 1]}, id="2d_same"),
    pytest.param(3, {"kernel_shape": [2, 2, 2], "auto_pad": "VALID"}, id="3d_valid"),
])
def test_shape_formula_matches_onnxruntime(r: int, attrs: dict[str, Any]) -> None:
    s = SPATIAL[r]
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, [data.f32(2, 3, *s), mask([1, 1, *s])], attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[1, 2, 3, 3, 3, 3], [1, 1, 3, 3, 3, 3]], {"kernel_shape": [2, 2, 2, 2]}, "maxpoolwithmask_c1",
                 id="4_spatial_axes"),
    pytest.param([[1, 2, 5, 5], [1, 1, 5, 5]], {}, "maxpoolwithmask_c2", id="no_kernel_shape"),
    pytest.param([[1, 2, 5, 5], [1, 1, 5, 5]], {"kernel_shape": [6, 2]}, "maxpoolwithmask_c3", id="kernel_too_big"),
    pytest.param([[1, 2, 5, 5], [1, 1, 5, 5]], {"kernel_shape": [2, 2], "pads": [1, 1, 1, 1], "auto_pad": "VALID"},
                 "maxpoolwithmask_c4", id="pads_and_auto_pad"),
    pytest.param([[1, 2, 5, 5], [1, 1, 5, 4]], {"kernel_shape": [2, 2]}, "maxpoolwithmask_c5", id="mask_spatial"),
    pytest.param([[1, 2, 5, 5], [1, 1, 5, 5]], {"kernel_shape": [2, 2], "pads": [2, 0, 0, 0]}, "maxpoolwithmask_c7",
                 id="pad_not_below_kernel"),
    pytest.param([[1, 2, 5, 5], [1, 5, 5]], {"kernel_shape": [2, 2]}, "maxpoolwithmask_c5", id="mask_rank"),
    pytest.param([[1, 2, 5, 5], [5]], {"kernel_shape": [2, 2]}, "rank", id="mask_1d"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
