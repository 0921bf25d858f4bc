"""com.microsoft VarlenCausalConvWithState: the kernel against onnxruntime's CPU kernel (packed requests, dilation,
SiLU, no bias, kernel size 1, captured prefix tokens), the shape formulas against onnxruntime, rejected nodes under
their constraint ids, and packed requests equal to CausalConvWithState run on each."""

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
OP = "VarlenCausalConvWithState"
f32 = Seeded(67).f32
C, T, B = 3, 7, 3
CU = np.array([0, 2, 3, 7], np.int32)


def _inputs(k: int, dilation: int = 1, *, bias: bool = True, capture: list[int] | None = None,
            dtype: type = np.float32) -> list[np.ndarray | None]:
    return [f32(T, C).astype(dtype), f32(C, 1, k).astype(dtype), CU, f32(C).astype(dtype) if bias else None,
            f32(B, C, (k - 1) * dilation).astype(dtype), None if capture is None else np.array(capture, np.int32)]


def _case(ident: str, attrs: dict[str, Any], inputs: list[np.ndarray | None], n_out: int = 2,
          rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), n_out=n_out, oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    _case("k4", {}, _inputs(4)),
    _case("silu-dilation2", {"activation": "silu", "dilation": 2}, _inputs(3, 2)),
    _case("swish-no-bias", {"activation": "swish"}, _inputs(2, bias=False)),
    _case("k1-no-state", {}, _inputs(1)),
    _case("capture", {"state_update_capacity": 3}, _inputs(3, capture=[1, 5, 2]), n_out=3),
    _case("capture-clamped", {"state_update_capacity": 8}, _inputs(2, capture=[-1, 8, 3]), n_out=3),
    _case("float16", {"activation": "silu"}, _inputs(3, dtype=np.float16), rtol=3e-3),
]


@pytest.mark.parametrize(("case", "opset"), oracle_params(CASES))
def test_kernel_matches_onnxruntime(case: OracleCase, opset: int) -> None:
    assert_matches_oracle(case, opset)


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, OP, {v for c in CASES for v in c.since})


def test_packed_requests_equal_causal_conv_on_each() -> None:
    ins = _inputs(3, 2)
    x, w, _, b, s, _ = ins
    assert x is not None and s is not None
    attrs = {"activation": "silu", "dilation": 2}
    y, final, _ = run(DOMAIN, OP, 1, ins, **attrs, delta_offset=0, group_size=1, state_update_capacity=0)
    for i in range(B):
        lo, hi = CU[i], CU[i + 1]
        single = run(DOMAIN, "CausalConvWithState", 1, [x[None, lo:hi].swapaxes(1, 2), w, b, s[i:i + 1]], **attrs,
                     channels_last=0, input_channel_offset=0, input_channels=0, ndim=1, state_channels_last=-1,
                     state_length=0, state_update_capacity=0, state_window=0)
        np.testing.assert_allclose(y[lo:hi], single[0][0].T, rtol=1e-6)
        np.testing.assert_allclose(final[i], single[1][0], rtol=1e-6)


def test_dynamic_two_tap_mode_is_refused() -> None:
    ins = [*_inputs(2), f32(T, 2, C), f32(T, 1)]
    with pytest.raises(ValueError, match="CUDA-only"):
        run(DOMAIN, OP, 1, ins, activation="none", delta_offset=0, dilation=1, group_size=1, state_update_capacity=0)


def test_shape_formulas_match_onnxruntime() -> None:
    assert_output_shapes_match_onnxruntime(DOMAIN, OP, 1, _inputs(3, capture=[1, 1, 1]), {"state_update_capacity": 2},
                                           n_out=3)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[T, C], [C, 1, 3], [4], None, [2, C, 2]], {}, "varlencausalconvwithstate_c1", id="batch"),
    pytest.param([[T, C], [C, 1, 3], [4], None, [3, C, 3]], {}, "varlencausalconvwithstate_c2", id="state_length"),
    pytest.param([[T, C], [C, 1, 3], [4], None, [3, C, 2]], {"state_update_capacity": 1},
                 "varlencausalconvwithstate_c3", id="capture_count"),
    pytest.param([[T, C], [C, 1, 3], [4], None, [3, C, 2]], {"group_size": 2}, "varlencausalconvwithstate_c4",
                 id="group_size"),
    pytest.param([[T, C], [C, 1, 3], [4], None, [3, C, 2], None, [T, 2, C]], {}, "varlencausalconvwithstate_c5",
                 id="delta_mask"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
