"""com.microsoft FusedConv: the kernel against onnxruntime's CPU kernel for every activation its fused-activation
list allows (with activation_params), Z, groups, strides, pads, dilations, 1-D to 3-D and float16; the shape formula
against onnxruntime; rejected nodes and inputs."""

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
    run,
    version,
)

DOMAIN = "com.microsoft"
OP = "FusedConv"
f32 = Seeded(11).f32

ACTIVATIONS: list[tuple[str, dict[str, Any]]] = [
    ("none", {}),
    ("relu", {"activation": "Relu"}),
    ("tanh", {"activation": "Tanh"}),
    ("sigmoid", {"activation": "Sigmoid"}),
    ("leakyrelu", {"activation": "LeakyRelu", "activation_params": [0.25]}),
    ("leakyrelu_negative", {"activation": "LeakyRelu", "activation_params": [-1.5]}),
    ("clip", {"activation": "Clip", "activation_params": [-0.5, 0.75]}),
    ("hardsigmoid", {"activation": "HardSigmoid", "activation_params": [0.75, 0.25]}),
]
X, W, B, Z = f32(2, 4, 6, 5), f32(6, 2, 3, 2), f32(6), f32(2, 6, 3, 4)
WINDOW = {"group": 2, "strides": [2, 1], "pads": [1, 0, 0, 1], "dilations": [1, 2]}


def _case(attrs: dict[str, Any], inputs: list[Any], ident: str, rtol: float = 1e-4) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=rtol, id=ident, domain=DOMAIN)


CASES = [
    *[_case({**a, **WINDOW}, [X, W, B, Z], f"{name}-bias-z") for name, a in ACTIVATIONS],
    *[_case(a, [X[:, :2], W[:4], None, None], f"{name}-plain") for name, a in ACTIVATIONS[:5]],
    _case({"activation": "Relu", "auto_pad": "SAME_UPPER", "strides": [2, 2]}, [X, f32(3, 4, 3, 3), None, None],
          "same_upper"),
    _case({"activation": "Clip", "activation_params": [0.0, 6.0]}, [f32(1, 3, 7), f32(2, 3, 3), f32(2), None], "1d"),
    _case({"activation": "Sigmoid", "pads": [1, 0, 1, 0, 1, 1]}, [f32(1, 2, 4, 3, 3), f32(3, 2, 2, 2, 2), None, None],
          "3d"),
    _case({"activation": "LeakyRelu", "activation_params": [0.5], **WINDOW},
          [X.astype(np.float16), W.astype(np.float16), B.astype(np.float16), Z.astype(np.float16)], "fp16", 1e-2),
    _case({"activation": "HardSigmoid", "activation_params": [0.2, 0.5]},
          [X[:1, :2].astype(np.float16), W[:3].astype(np.float16), None, None], "fp16-hardsigmoid", 1e-2),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("inputs", "attrs", "message"), [
    pytest.param([X, W, B, None], {"group": 2, "activation": "LeakyRelu"}, "activation_params", id="no-alpha"),
    pytest.param([X, W, B, None], {"group": 2, "activation": "Clip", "activation_params": [1.0]},
                 "activation_params", id="clip-one-param"),
    pytest.param([X, W, B, f32(2, 6, 4, 4)], WINDOW, "Z must have", id="z-shape"),
])
def test_kernel_rejects_invalid_input(inputs: list[Any], attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, inputs, **attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([X, W, B, Z], WINDOW, id="window-bias-z"),
    pytest.param([f32(1, 3, 7), f32(2, 3, 3), None, None], {"auto_pad": "SAME_LOWER", "strides": [3]}, id="1d-same"),
    pytest.param([f32(1, 2, 4, 3, 3), f32(3, 2, 2, 2, 2), None, None], {"auto_pad": "VALID"}, id="3d-valid"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[Any], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[2, 4, 6, 5], [6, 3, 3, 2]], {"group": 2}, "fusedconv_c2", id="channels"),
    pytest.param([[2, 4, 6, 5], [6, 2, 3, 2], [6], [2, 6, 4, 4]], WINDOW, "fusedconv_c7", id="z-shape"),
    pytest.param([[2, 4, 6, 5], [6, 4, 3, 2]], {"activation": "LeakyRelu"}, "fusedconv_c8", id="leakyrelu-no-alpha"),
    pytest.param([[2, 4, 6, 5], [6, 4, 3, 2]], {"activation": "HardSigmoid", "activation_params": [0.2]},
                 "fusedconv_c8", id="hardsigmoid-one-param"),
    pytest.param([[2, 4], [6, 4]], {}, "fusedconv_c9", id="no-spatial-axis"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
