"""com.microsoft QAttention: the kernel (both outputs) and the shape formulas against onnxruntime over the mask
layouts, unidirectional, past, per-column weight parameters and mask_filter_value; rejected nodes and inputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    kernel_outputs,
    oracle_outputs,
    problem_checks,
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "QAttention"
RNG = np.random.default_rng(41)
B, S, D, N, HS = 2, 3, 8, 2, 3
W3 = 3 * N * HS
DEFAULTS = {"do_rotary": 0, "mask_filter_value": -10000.0, "past_present_share_buffer": 0, "scale": None,
            "unidirectional": 0}


def base(weight_type: type = np.int8) -> list[Any]:
    info = np.iinfo(weight_type)
    return [RNG.integers(0, 256, (B, S, D)).astype(np.uint8),
            RNG.integers(info.min, info.max + 1, (D, W3)).astype(weight_type),
            RNG.standard_normal(W3).astype(np.float32), np.array(0.02, np.float32), np.array(0.01, np.float32)]


def case(inputs: list[Any], id: str, rtol: float = 1e-5, **attrs: Any) -> OracleCase:
    return OracleCase(OP, {"num_heads": N, **attrs}, inputs, (1,), n_out=2, oracle="ort", rtol=rtol, id=id,
                      domain=DOMAIN)


PAST = RNG.standard_normal((2, B, N, 2, HS)).astype(np.float32)
CASES = [
    case(base(), "plain"),
    case([*base(), None, np.array(100, np.uint8), RNG.integers(-5, 5, W3).astype(np.int8)], "zero_points"),
    case([*base()[:4], (RNG.random(W3) * 0.02).astype(np.float32)], "per_column_weight_scale"),
    case(base(np.uint8), "uint8_weight"),
    case([*base(), np.array([2, 1], np.int32)], "mask_end_positions"),
    case([*base(), np.array([3, 2, 1, 0], np.int32)], "mask_end_and_start_positions"),
    case([*base(), np.array([[1, 0, 1], [1, 1, 0]], np.int32)], "mask_2d"),
    case([*base(), RNG.integers(0, 2, (B, S, S)).astype(np.int32)], "mask_3d"),
    case([*base(), np.array([2, 1], np.int32)], "mask_filter_value", mask_filter_value=-3.0),
    case(base(), "unidirectional", unidirectional=1),
    case([*base(), np.array([[1, 0, 1], [1, 1, 0]], np.int32)], "unidirectional_mask_filter_value",
         unidirectional=1, mask_filter_value=-3.0),
    case(base(), "causal_excludes_whatever_the_scale", unidirectional=1, scale=3000.0),
    case(base(), "scale", scale=0.3),
    case([*base(), None, None, None, PAST], "past"),
    case([*base(), RNG.integers(0, 2, (B, 5)).astype(np.int32), None, None, PAST], "past_mask_2d", unidirectional=1),
    case(base(), "do_rotary_ignored", do_rotary=1),
    case([*base()[:2], *(x.astype(np.float16) for x in base()[2:])], "fp16", rtol=2e-3),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_onnxruntime(case: OracleCase) -> None:
    assert_matches_oracle(case, 1)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_causal_keys_get_no_weight_whatever_mask_filter_value() -> None:
    """A filter value of 0 would leave padded keys in, but the causal mask still removes the keys after each
    query: the first query of a unidirectional node sees only its own key, so it outputs that key's V."""
    c = case(base(), "first_query", unidirectional=1, mask_filter_value=0.0)
    out, present = kernel_outputs(c, 1)
    first_v = present[1][:, :, 0, :]  # [B, N, H]
    np.testing.assert_allclose(out[:, 0, :], first_v.reshape(B, N * HS), rtol=1e-6)
    np.testing.assert_allclose(out, oracle_outputs(c, 1)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shape_formulas_match_onnxruntime(case: OracleCase) -> None:
    mine = formula_shapes(version(DOMAIN, OP, 1), case.inputs, {**DEFAULTS, **case.attrs})
    theirs = [list(x.shape) for x in oracle_outputs(case, 1)]
    assert mine == theirs


X, W = [B, S, D], [D, W3]


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([X, [D, 17], [17], [], []], {}, "qattention_c1", id="weight_not_three_parts"),
    pytest.param([X, W, [W3], [], []], {"num_heads": 4}, "qattention_c1", id="heads_do_not_divide"),
    pytest.param([X, W, [W3], [2], []], {}, "qattention_c2", id="input_scale"),
    pytest.param([X, W, [W3], [], [5]], {}, "qattention_c3", id="weight_scale"),
    pytest.param([X, W, [W3], [], [], None, [2]], {}, "qattention_c4", id="input_zero_point"),
    pytest.param([X, W, [W3], [], [], None, None, [4]], {}, "qattention_c5", id="weight_zero_point"),
    pytest.param([X, W, [W3], [], [], [B, 2]], {}, "qattention_c6", id="mask_2d_length"),
    pytest.param([X, W, [W3], [], [], [3]], {}, "qattention_c6", id="mask_1d_length"),
    pytest.param([X, W, [W3], [], [], None, None, None, [2, B, N, 2, 4]], {}, "qattention_c7", id="past_head"),
    pytest.param([X, W, [W3], [], [], None, None, None, [2, B, N, 2, HS]], {"past_present_share_buffer": 1},
                 "qattention_c8", id="share_buffer_with_past"),
    pytest.param([X, W, [5], [], []], {}, "binding", id="bias_length"),
])
def test_invalid_node_reports_the_check(shapes: list[Any], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, {**DEFAULTS, "num_heads": N, **attrs})


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param(base(), {"num_heads": 4}, "divide", id="heads"),
    pytest.param([*base(), np.array([1], np.int32)], {}, "mask_index", id="mask_length"),
    pytest.param([*base(), None, None, None, PAST], {"past_present_share_buffer": 1}, "cache", id="share_buffer"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **{**DEFAULTS, "num_heads": N, **attrs})
