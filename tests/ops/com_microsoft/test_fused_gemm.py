"""com.microsoft FusedGemm: the kernel against onnxruntime's CPU kernel (float) for every activation functor with
the parameters it reads, C broadcast, alpha, beta and the transpositions; integer types (no onnxruntime kernel)
against a hand-derived case; the shape formula against onnxruntime; rejected nodes and inputs."""

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
OP = "FusedGemm"
seeded = Seeded(12)
f32 = seeded.f32

ACTIVATIONS: list[tuple[str, dict[str, Any]]] = [
    ("relu", {"activation": "Relu"}),
    ("sigmoid", {"activation": "Sigmoid"}),
    ("tanh", {"activation": "Tanh"}),
    ("softplus", {"activation": "Softplus"}),
    ("softsign", {"activation": "Softsign"}),
    ("leakyrelu", {"activation": "LeakyRelu", "activation_alpha": 0.25}),
    ("elu", {"activation": "Elu", "activation_alpha": 1.5}),
    ("thresholdedrelu", {"activation": "ThresholdedRelu", "activation_alpha": 0.5}),
    ("selu", {"activation": "Selu", "activation_alpha": 1.25, "activation_gamma": 2.0}),
    ("hardsigmoid", {"activation": "HardSigmoid", "activation_alpha": 0.75, "activation_beta": 0.25}),
    ("parametricsoftplus", {"activation": "ParametricSoftplus", "activation_alpha": 1.5, "activation_beta": 0.5}),
    ("scaledtanh", {"activation": "ScaledTanh", "activation_alpha": 2.0, "activation_beta": 0.75}),
    ("relu-spare-params", {"activation": "Relu", "activation_alpha": 3.0, "activation_gamma": 2.0}),
]
A, B = f32(4, 3), f32(3, 5)


def _case(attrs: dict[str, Any], inputs: list[Any], ident: str) -> OracleCase:
    return OracleCase(OP, attrs, inputs, (1,), oracle="ort", rtol=1e-4, id=ident, domain=DOMAIN)


CASES = [
    *[_case({**a, "alpha": 0.5, "beta": -1.5}, [A, B, f32(4, 5)], name) for name, a in ACTIVATIONS],
    _case({"activation": "LeakyRelu", "activation_alpha": 0.1, "transA": 1, "transB": 1}, [A.T.copy(), B.T.copy(),
                                                                                             f32(5)], "trans-row-c"),
    _case({"activation": "Tanh", "beta": 2.0}, [A, B, f32(4, 1)], "column-c"),
    _case({"activation": "Sigmoid"}, [A, B, f32(1)], "one-c"),
    _case({"activation": "Elu", "activation_alpha": 0.5}, [A, B, None], "no-c"),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


def test_integer_types_compute_gemm_then_the_activation() -> None:
    """onnxruntime has no integer FusedGemm: the kernel computes ai.onnx Gemm's integer product, then the
    activation in float64, truncated toward zero."""
    a = seeded.ints(-5, 5, (3, 4), np.int32)
    b = seeded.ints(-5, 5, (4, 2), np.int32)
    c = seeded.ints(-5, 5, (2,), np.int32)
    (relu,) = run(DOMAIN, OP, 1, [a, b, c], activation="Relu")
    np.testing.assert_array_equal(relu, np.maximum(a @ b + c, 0))
    assert relu.dtype == np.int32
    (leaky,) = run(DOMAIN, OP, 1, [a, b, c], activation="LeakyRelu", activation_alpha=0.5)
    y = (a @ b + c).astype(np.float64)
    np.testing.assert_array_equal(leaky, np.trunc(np.where(y >= 0, y, 0.5 * y)).astype(np.int32))


@pytest.mark.parametrize(("attrs", "message"), [
    pytest.param({}, "needs an activation", id="no-activation"),
    pytest.param({"activation": "LeakyRelu"}, "activation_alpha", id="leakyrelu-no-alpha"),
    pytest.param({"activation": "Selu", "activation_alpha": 1.0}, "activation_gamma", id="selu-no-gamma"),
    pytest.param({"activation": "Gelu"}, "unsupported activation", id="unknown"),
])
def test_kernel_rejects_invalid_input(attrs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(DOMAIN, OP, 1, [A, B, None], **attrs)


@pytest.mark.parametrize(("inputs", "attrs"), [
    pytest.param([A, B, f32(5)], {"activation": "Relu"}, id="plain"),
    pytest.param([A.T.copy(), B.T.copy(), None], {"activation": "Relu", "transA": 1, "transB": 1}, id="trans"),
])
def test_shape_formula_matches_onnxruntime(inputs: list[Any], attrs: dict[str, Any]) -> None:
    assert_shapes_match_onnxruntime(DOMAIN, OP, 1, inputs, attrs)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[4, 3], [4, 5]], {"activation": "Relu"}, "fusedgemm_c1", id="inner-dims"),
    pytest.param([[4, 3], [3, 5], [3, 5]], {"activation": "Relu"}, "fusedgemm_c2", id="c-broadcast"),
    pytest.param([[4, 3], [3, 5]], {}, "fusedgemm_c3", id="no-activation"),
    pytest.param([[4, 3], [3, 5]], {"activation": "Elu"}, "fusedgemm_c4", id="elu-no-alpha"),
    pytest.param([[4, 3], [3, 5]], {"activation": "ScaledTanh", "activation_alpha": 1.0}, "fusedgemm_c5",
                 id="scaledtanh-no-beta"),
    pytest.param([[4, 3], [3, 5]], {"activation": "Selu", "activation_alpha": 1.0}, "fusedgemm_c6",
                 id="selu-no-gamma"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
