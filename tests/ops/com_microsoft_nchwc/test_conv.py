"""com.microsoft.nchwc Conv: the kernel against onnxruntime's CPU kernel for each of MLAS's algorithms (blocked,
pointwise, depthwise, NCHW input; each reads its weight in its own blocked layout), B, Sum and every fused
activation; its shape formula against onnxruntime's shapes, and rejected nodes."""

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
    ramp,
    run,
    version,
)

DOMAIN = "com.microsoft.nchwc"
OP = "Conv"
f32 = Seeded(15).f32


def _case(inputs: list[np.ndarray | None], cid: str, **attrs: Any) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=1e-4, id=cid, domain=DOMAIN)


CASES = [
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "nchwc"),
    _case([f32(2, 32, 5, 6), f32(32, 32, 3, 3), f32(32)], "nchwc-bias-strided-padded", pads=[1, 0, 1, 2],
          strides=[2, 1]),
    _case([f32(1, 16, 6, 6), f32(16, 16, 2, 3)], "nchwc-dilated", dilations=[2, 1]),
    _case([f32(1, 16, 5, 6), f32(16, 16, 3, 3)], "nchwc-same-lower", auto_pad="SAME_LOWER", strides=[2, 2]),
    _case([f32(1, 32, 5, 6), f32(16, 32, 1, 1)], "pointwise"),
    _case([f32(1, 32, 5, 6), f32(16, 32, 1, 1)], "pointwise-strided", strides=[2, 2]),
    _case([f32(1, 32, 5, 6), f32(32, 16, 3, 3)], "grouped", group=2),
    _case([f32(1, 32, 5, 6), f32(32, 1, 3, 3), f32(32)], "depthwise", group=32, pads=[1, 1, 1, 1]),
    _case([f32(1, 3, 5, 6), f32(16, 3, 3, 3), f32(16)], "nchw-input", pads=[1, 1, 1, 1]),
    _case([f32(1, 8, 7, 6), f32(32, 8, 3, 3)], "nchw-input-valid", auto_pad="VALID", strides=[2, 2]),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3), f32(16), f32(1, 16, 3, 4)], "sum-relu", activation="Relu"),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3), None, f32(1, 16, 3, 4)], "sum-no-bias"),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "leaky-relu", activation="LeakyRelu", activation_params=[0.1]),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "clip", activation="Clip", activation_params=[-0.5, 0.75]),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "hard-sigmoid", activation="HardSigmoid",
          activation_params=[0.2, 0.5]),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "sigmoid", activation="Sigmoid"),
    _case([f32(1, 32, 5, 6), f32(16, 32, 3, 3)], "tanh", activation="Tanh"),
]
SHAPES = [
    ("k3p1s2", [ramp(1, 32, 9, 8), ramp(16, 32, 3, 3)], {"pads": [1, 1, 1, 1], "strides": [2, 2]}),
    ("same-upper", [ramp(1, 3, 7, 8), ramp(16, 3, 3, 3)], {"auto_pad": "SAME_UPPER", "strides": [2, 3]}),
]
REJECTED = [
    ([[1, 32, 5, 5], [16, 16, 3, 3]], {}, "conv_c1"),
    ([[1, 32, 5, 5], [16, 32, 3, 3]], {"kernel_shape": [2, 2]}, "conv_c3"),
    ([[1, 20, 5, 5], [16, 20, 3, 3]], {}, "conv_c4"),
    ([[1, 32, 5, 5], [24, 32, 3, 3]], {}, "conv_c5"),
    ([[1, 32, 5, 5], [48, 16, 3, 3]], {"group": 2}, "conv_c6"),
    ([[1, 16, 5, 5], [32, 8, 3, 3]], {"group": 2}, "conv_c7"),
    ([[1, 16, 2, 2], [16, 16, 3, 3]], {}, "conv_c8"),
    ([[1, 16, 5, 5], [16, 16, 3, 3]], {"activation": "LeakyRelu"}, "conv_c9"),
    ([[1, 16, 5, 5], [16, 16, 3, 3], None, [1, 16, 5, 5]], {}, "conv_c10"),
    ([[1, 16, 5, 5], [16, 16, 3, 3]], {"auto_pad": "SAME_UPPER", "dilations": [2, 1]}, "conv_c11"),
    ([[1, 16, 5, 5], [16, 16, 3, 3]], {"activation": "Silu"}, "attr_allowed"),
]
INVALID = [
    ("output-not-blocked", [ramp(1, 16, 4, 4), ramp(8, 16, 1, 1), None, None], {}),
    ("input-not-blocked", [ramp(1, 20, 4, 4), ramp(16, 20, 1, 1), None, None], {}),
    ("leaky-relu-without-alpha", [ramp(1, 16, 4, 4), ramp(16, 16, 1, 1), None, None], {"activation": "LeakyRelu"}),
    ("same-dilated", [ramp(1, 16, 4, 4), ramp(16, 16, 2, 2), None, None], {"auto_pad": "SAME_UPPER",
                                                                            "dilations": [2, 2]}),
]
test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in SHAPES])
def test_shape_formula_matches_onnxruntime(inputs: list[np.ndarray], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [pytest.param(s, a, c, id=c) for s, a, c in REJECTED])
def test_invalid_node_reports_the_check(shapes: list[list[int] | None], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [pytest.param(i, a, id=n) for n, i, a in INVALID])
def test_kernel_rejects_invalid_input(inputs: list[np.ndarray | None], attrs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        run(DOMAIN, OP, 1, inputs, **attrs)
