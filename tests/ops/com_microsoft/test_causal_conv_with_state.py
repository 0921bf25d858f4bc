"""com.microsoft CausalConvWithState: the kernel against onnxruntime's CPU kernel (kernel sizes, dilation, both layouts
with one or more channel axes, SiLU, bias and state present or not), the CUDA-only state window, explicit state
length and state capture against chunked runs and the definition, the shape formulas against onnxruntime, and rejected
nodes under their constraint ids."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    assert_matches_oracle,
    assert_registry_ranges_exercised,
    formula_shapes,
    oracle_params,
    problem_checks,
    run,
    version,
)
from tests.helpers.ort_outputs import assert_output_shapes_match_onnxruntime

DOMAIN = "com.microsoft"
OP = "CausalConvWithState"
f32 = Seeded(13).f32
N, C, L = 2, 6, 5
DEFAULTS = {"activation": "none", "channels_last": 0, "dilation": 1, "input_channel_offset": 0, "input_channels": 0,
            "ndim": 1, "state_channels_last": -1, "state_length": 0, "state_update_capacity": 0, "state_window": 0}


def _case(ident: str, k: int, attrs: dict[str, Any], *, last: bool = False, bias: bool = True,
          past: bool = True) -> OracleCase:
    hist = (k - 1) * attrs.get("dilation", 1)
    x, state = (f32(N, L, 2, 3), f32(N, hist, 2, 3)) if last else (f32(N, C, L), f32(N, C, hist))
    attrs = {**attrs, "channels_last": 1} if last else attrs
    return OracleCase(OP, attrs, [x, f32(C, 1, k), f32(C) if bias else None, state if past else None], (1,),
                      n_out=2, oracle="ort", rtol=1e-5, id=ident, domain=DOMAIN)


CASES = [
    _case("k4", 4, {}),
    _case("k1-silu", 1, {"activation": "silu"}),
    _case("k3-dilation2-swish", 3, {"dilation": 2, "activation": "swish"}),
    _case("k2-nobias-nopast", 2, {}, bias=False, past=False),
    _case("channels-last", 3, {"dilation": 3}, last=True),
    _case("channels-last-silu-nopast", 4, {"activation": "silu"}, last=True, past=False),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def _run(inputs: list[np.ndarray | None], **attrs: Any) -> tuple[np.ndarray, ...]:
    """output and present_state (and state_update with a capture capacity)."""
    outs = run(DOMAIN, OP, 1, inputs, **{**DEFAULTS, **attrs})
    return outs if attrs.get("state_update_capacity", 0) else outs[:2]


def test_chunked_calls_equal_one_call() -> None:
    x, w, b = f32(N, C, 7), f32(C, 1, 3), f32(C)
    whole, state = _run([x, w, b, None], dilation=2)
    first, mid = _run([x[:, :, :3], w, b, None], dilation=2)
    second, end = _run([x[:, :, 3:], w, b, mid], dilation=2)
    np.testing.assert_allclose(np.concatenate([first, second], axis=2), whole, rtol=1e-6)
    np.testing.assert_array_equal(end, state)


@pytest.mark.parametrize("window", [1, 3, 7])
def test_state_window_holds_the_state_after_each_trailing_position(window: int) -> None:
    x, w, b, past = f32(N, C, L), f32(C, 1, 3), f32(C), f32(N, C, 2)
    stacked = np.concatenate([np.full((window - 1, N, C, 2), 5.0, np.float32), past[None]])
    y, states = _run([x, w, b, stacked], state_window=window)
    np.testing.assert_array_equal(y, _run([x, w, b, past])[0])  # only slot W - 1 is read
    for j in range(window):
        t = L - window + j
        want = np.zeros_like(past) if t < 0 else _run([x[:, :, :t + 1], w, b, past])[1]
        np.testing.assert_array_equal(states[j], want)


def test_explicit_state_length_reads_its_trailing_positions_and_captures_rows() -> None:
    x, w = f32(N, L, C), f32(C, 1, 3)
    long_state = f32(N, C, 4)  # channels-first state (state_channels_last 0) longer than the history of 2
    y, state, update = _run([x, w, None, long_state], channels_last=1, state_length=4, state_channels_last=0,
                            state_update_capacity=3)
    y_ref, _ = _run([x, w, None, np.ascontiguousarray(long_state[:, :, 2:].transpose(0, 2, 1))], channels_last=1)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6)
    seq = np.concatenate([long_state, x.transpose(0, 2, 1)], axis=2)
    np.testing.assert_array_equal(state, seq[:, :, -4:])
    np.testing.assert_array_equal(update, x[:, :3])


def test_what_the_kernel_refuses() -> None:
    with pytest.raises(ValueError, match="ndim > 1"):
        _run([f32(N, C, 3, L), f32(C, 1, 2, 2), None, None], ndim=2)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([f32(N, C, L), f32(C, 1, 4), None, None], {"dilation": 2}, id="first"),
    pytest.param([f32(N, L, 2, 3), f32(C, 1, 3), f32(C), None], {"channels_last": 1}, id="last"),
])
def test_shape_formulas_match_onnxruntime(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs, n_out=2)


def test_cuda_only_shape_formulas() -> None:
    v = version(DOMAIN, OP, 1)
    assert formula_shapes(v, [[N, C, L], [C, 1, 3]], {"state_window": 4})[1] == [4, N, C, 2]
    got = formula_shapes(v, [[N, L, C], [C, 1, 3]], {"channels_last": 1, "state_length": 5,
                                                     "state_channels_last": 0, "state_update_capacity": 2})
    assert got == [[N, L, C], [N, C, 5], [N, 2, C]]


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[N, C, L, 2], [C, 1, 3]], {}, "causalconvwithstate_c1", id="rank"),
    pytest.param([[N, C, L], [C, 2, 3]], {}, "causalconvwithstate_c2", id="depthwise"),
    pytest.param([[N, 4, L], [C, 1, 3]], {}, "causalconvwithstate_c3", id="channels"),
    pytest.param([[N, L, 4], [C, 1, 3]], {"channels_last": 1}, "causalconvwithstate_c4", id="last_channels"),
    pytest.param([[N, C, L], [C, 1, 3], [4]], {}, "causalconvwithstate_c5", id="bias"),
    pytest.param([[N, C, L], [C, 1, 3], None, [N, C, 3]], {}, "causalconvwithstate_c6", id="state"),
    pytest.param([[N, L, C], [C, 1, 3]], {"channels_last": 1, "state_length": 1}, "causalconvwithstate_c7",
                 id="short_state"),
    pytest.param([[N, C, L], [C, 1, 3]], {"state_length": 4}, "causalconvwithstate_c8", id="extended"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
