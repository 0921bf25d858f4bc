"""com.microsoft FusedMatMulActivation: onnxruntime registers no kernel for it (its CPU provider fuses MatMul and an
activation into FusedMatMul plus the activation at most), so the kernel is checked against FusedMatMul (CPU) followed
by the activation as ai.onnx nodes (ParametricSoftplus and ScaledTanh spelled out with Mul), for every activation
functor with the parameters it reads, the transpositions and alpha; the shape formula; rejected nodes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import pytest

from tests.helpers import OracleCase, Seeded, formula_shapes, oracle_tests, problem_checks, version
from tests.helpers.ort_graphs import node, run_ort_graph

DOMAIN = "com.microsoft"
OP = "FusedMatMulActivation"
f32 = Seeded(35).f32
MATMUL_ATTRS = ("alpha", "transA", "transB", "transBatchA", "transBatchB")


def _constant(name: str, value: float, dtype: Any) -> onnx.NodeProto:
    return node("Constant", [], [name], value=onnx.numpy_helper.from_array(np.array(value, dtype=dtype), name))


def activation_nodes(attrs: dict[str, Any], dtype: Any) -> list[onnx.NodeProto]:
    """ai.onnx nodes taking `m` to `y` as the activation functor named in `attrs` does."""
    act = attrs["activation"]
    alpha, beta, gamma = (attrs.get(f"activation_{k}") for k in ("alpha", "beta", "gamma"))
    if act in ("Relu", "Sigmoid", "Tanh", "Softplus", "Softsign"):
        return [node(act, ["m"], ["y"])]
    if act in ("LeakyRelu", "Elu", "ThresholdedRelu"):
        return [node(act, ["m"], ["y"], alpha=alpha)]
    if act == "Selu":
        return [node(act, ["m"], ["y"], alpha=alpha, gamma=gamma)]
    if act == "HardSigmoid":
        return [node(act, ["m"], ["y"], alpha=alpha, beta=beta)]
    inner = "Softplus" if act == "ParametricSoftplus" else "Tanh"
    assert alpha is not None and beta is not None
    return [_constant("act_alpha", alpha, dtype), _constant("act_beta", beta, dtype),
            node("Mul", ["m", "act_beta"], ["bm"]), node(inner, ["bm"], ["f"]), node("Mul", ["f", "act_alpha"], ["y"])]


def subgraph(attrs: dict[str, Any], a: np.ndarray, b: np.ndarray) -> Callable[[], list[Any]]:
    def run_it() -> list[Any]:
        matmul = {k: v for k, v in attrs.items() if k in MATMUL_ATTRS}
        nodes = [node("FusedMatMul", ["a", "b"], ["m"], domain=DOMAIN, **matmul), *activation_nodes(attrs, a.dtype)]
        return run_ort_graph(nodes, {"a": a, "b": b}, ["y"])

    return run_it


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
]


def _case(attrs: dict[str, Any], a: np.ndarray, b: np.ndarray, ident: str, rtol: float = 1e-5) -> OracleCase:
    return OracleCase(OP, attrs, [a, b], (1,), oracle=subgraph(attrs, a, b), rtol=rtol, id=ident, domain=DOMAIN)


A, B = f32(2, 4, 3) * 2, f32(3, 5) * 2
CASES = [
    *[_case({**attrs, "alpha": 0.5}, A, B, name) for name, attrs in ACTIVATIONS],
    _case({"activation": "LeakyRelu", "activation_alpha": 0.1, "transA": 1, "transB": 1}, f32(3, 4), f32(5, 3),
          "transA-transB"),
    _case({"activation": "Elu", "activation_alpha": 0.5, "transBatchA": 1}, f32(3, 2, 5), f32(2, 5, 4),
          "transBatchA"),
    _case({"activation": "Tanh", "transBatchB": 1, "transB": 1}, f32(2, 3, 5), f32(4, 2, 5), "transBatchB-transB"),
    _case({"activation": "Sigmoid"}, f32(3), f32(3, 4), "vector-a"),
    _case({"activation": "Relu", "alpha": -1.0}, f32(2, 3, 4), f32(4), "vector-b"),
    _case({"activation": "HardSigmoid", "activation_alpha": 0.5, "activation_beta": 0.5}, f32(2, 3).astype(np.float16),
          f32(3, 4).astype(np.float16), "fp16", rtol=5e-3),
    _case({"activation": "Softplus", "alpha": 2.0}, f32(2, 3).astype(np.float64), f32(3, 4).astype(np.float64),
          "double", rtol=1e-10),
]

test_kernel_matches_onnxruntime, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_shape_formula_matches_the_subgraph(case: OracleCase) -> None:
    assert callable(case.oracle)
    assert formula_shapes(version(DOMAIN, OP, 1), case.inputs, case.attrs)[0] == list(case.oracle()[0].shape)


@pytest.mark.parametrize(("shapes", "attrs", "check"), [
    pytest.param([[], [3, 4]], {"activation": "Relu"}, "fusedmatmulactivation_c1", id="scalar"),
    pytest.param([[2, 3], [4, 3]], {"activation": "Relu"}, "fusedmatmulactivation_c2", id="inner-dims"),
    pytest.param([[2, 3], [3, 4]], {"activation": "LeakyRelu"}, "fusedmatmulactivation_c4", id="no-alpha"),
    pytest.param([[2, 3], [3, 4]], {"activation": "ScaledTanh", "activation_alpha": 1.0}, "fusedmatmulactivation_c5",
                 id="no-beta"),
    pytest.param([[2, 3], [3, 4]], {"activation": "Selu", "activation_alpha": 1.0}, "fusedmatmulactivation_c6",
                 id="no-gamma"),
    pytest.param([[2, 3], [3, 4]], {"activation": "Relu", "transBatchA": 1}, "fusedmatmulactivation_c7",
                 id="transBatch-rank2"),
])
def test_invalid_node_reports_the_check(shapes: list[list[int]], attrs: dict[str, Any], check: str) -> None:
    assert check in problem_checks(version(DOMAIN, OP, 1), shapes, attrs)
