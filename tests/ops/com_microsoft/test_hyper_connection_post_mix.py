"""com.microsoft HyperConnectionPostMix: the kernel against onnxruntime's CPU kernel (grouped and flattened streams,
every post_mix form, with and without stream_mix, float16), the shape formula against onnxruntime, rejected nodes
under their constraint ids, and a value by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "HyperConnectionPostMix"
f32 = Seeded(43).f32
L, C, H = (2, 3), 4, 5


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None], rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("grouped-per-branch", {}, [f32(*L, C, H), f32(*L, H), f32(*L, C), f32(*L, C, C)]),
    _case("grouped-C1", {}, [f32(*L, C, H), f32(*L, H), f32(*L, C, 1), f32(*L, C, C)]),
    _case("grouped-per-feature-identity", {}, [f32(*L, C, H), f32(*L, H), f32(*L, C, H), None]),
    _case("grouped-no-lead", {}, [f32(C, H), f32(H), f32(C), f32(C, C)]),
    _case("flat-per-branch", {"num_branches": C}, [f32(*L, C * H), f32(*L, H), f32(*L, C), f32(*L, C, C)]),
    _case("flat-per-feature", {"num_branches": C}, [f32(*L, C * H), f32(*L, H), f32(*L, C, H), None]),
    _case("float16", {}, [a.astype(np.float16) for a in (f32(*L, C, H), f32(*L, H), f32(*L, C), f32(*L, C, C))],
          rtol=3e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_value_by_hand() -> None:
    """stream_mix[c, k] sends stream c into stream k: a swap, plus the block output injected into stream 1."""
    streams = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    block = np.array([10.0, 20.0], np.float32)
    post = np.array([0.0, 1.0], np.float32)
    swap = np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)
    got = run(DOMAIN, OP, 1, [streams, block, post, swap], num_branches=0)[0]
    np.testing.assert_allclose(got, [[3.0, 4.0], [11.0, 22.0]])
    upper = np.array([[1.0, 1.0], [0.0, 1.0]], np.float32)  # Y[k] = sum_c M[c, k] X[c]: Y[0] = X[0], Y[1] = X[0] + X[1]
    got = run(DOMAIN, OP, 1, [streams, block, np.zeros(2, np.float32), upper], num_branches=0)[0]
    np.testing.assert_allclose(got, [[1.0, 2.0], [4.0, 6.0]])


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([f32(*L, C, H), f32(*L, H), f32(*L, C), f32(*L, C, C)], {}, id="grouped"),
    pytest.param([f32(*L, C * H), f32(*L, H), f32(*L, C, H), None], {"num_branches": C}, id="flat"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 7], [2, 2], [2, 3]], {"num_branches": 3}, "hyperconnectionpostmix_c1", id="flat_width"),
    pytest.param([[2, C, H], [2, H + 1], [2, C]], {}, "hyperconnectionpostmix_c2", id="block_output"),
    pytest.param([[2, C * H], [2, H], [2, C * H]], {"num_branches": C}, "hyperconnectionpostmix_c3",
                 id="flat_gate"),
    pytest.param([[2, C, H], [2, H], [2, C], [2, C, C + 1]], {}, "hyperconnectionpostmix_c4", id="stream_mix"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
