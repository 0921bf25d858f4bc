"""com.ms.internal.nhwc's schemas draw only valid nodes: input 0's signature is channels last (`[N, *S, C]`, the
twin's dims with C moved last), the fused activation is one of onnxruntime's with its parameters, and an nhwc op
draws as its twin (the twin's YAML domains and hint) with input 0 then moved channels last
(conformance/strategies/channels_last.py). Each version's drawn cases run in its kernel with the formulas' shapes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.kernels import no_reference_kernel
from conformance.kernels.registry import run_kernel
from conformance.strategies import cell_dtypes, op_cases
from opset.infer import infer_shapes
from tests.helpers import problem_checks, registry, run, version

DOMAIN = "com.ms.internal.nhwc"
X = np.random.default_rng(5).standard_normal((1, 4, 5, 3)).astype(np.float32)  # [N, H, W, C]
VERSIONS = [(name, v.since) for (d, name) in sorted(registry().ops) if d == DOMAIN
            for v in registry().op(d, name).versions if no_reference_kernel(d, name) is None]
OWN_LAYOUT = {"QLinearAveragePool"}  # the twin takes a channels_last attribute itself


@pytest.mark.parametrize(("op", "since"), VERSIONS)
def test_input_0_is_channels_last_in_the_signature(op: str, since: int) -> None:
    if op in OWN_LAYOUT:
        return
    signature = version(DOMAIN, op, since).inputs[0].shape
    assert isinstance(signature, tuple) and len(signature) >= 3, signature
    first, *spatial, last = signature
    assert isinstance(first, str) and isinstance(last, str) and not first.startswith("*") and not last.startswith("*")
    assert all(isinstance(d, str) for d in spatial)


@pytest.mark.parametrize("op", ["BatchNormalization", "GlobalAveragePool", "LRN", "Conv"])
def test_a_rank_1_input_is_refused(op: str) -> None:
    v = registry().op(DOMAIN, op).versions[-1]
    others = [[1, 1, 1] if p.name == "W" else [1] for p in v.inputs[1:] if not p.optional]
    checks = problem_checks(v, [[5], *others], {"kernel_shape": [1]} if op == "Conv" else {})
    assert "rank" in checks or any("rank" in c for c in checks), checks


@pytest.mark.parametrize(("activation", "params", "valid"), [
    ("Relu", None, True), ("LeakyRelu", [0.1], True), ("Clip", [-1.0, 1.0], True), ("HardSigmoid", [0.2, 0.5], True),
    ("", [0.0], False), ("LeakyRelu", None, False), ("Relu", [1.0], False), ("Swish", None, False)])
def test_the_fused_activation_is_one_of_onnxruntimes_with_its_parameters(activation: str, params: list[float] | None,
                                                                           valid: bool) -> None:
    for op, since in (("MaxPool", 1), ("AveragePool", 19), ("Conv", 11), ("BatchNormalization", 15)):
        v = version(DOMAIN, op, since)
        attrs: dict[str, object] = {"activation": activation}
        if params is not None:
            attrs["activation_params"] = params
        if op in ("MaxPool", "AveragePool"):
            attrs["kernel_shape"] = [2, 2]
        inputs: list[object] = [list(X.shape)]
        if op == "Conv":
            inputs.append([2, 3, 1, 1])
        if op == "BatchNormalization":
            inputs += [[3]] * 4
        assert (not problem_checks(v, inputs, attrs)) == valid, (op, attrs)


def test_an_empty_activation_without_parameters_is_none_and_errors_name_the_op() -> None:
    plain = run(DOMAIN, "AveragePool", 19, [X], kernel_shape=[2, 2])[0]
    empty = run(DOMAIN, "AveragePool", 19, [X], kernel_shape=[2, 2], activation="")[0]
    assert np.array_equal(plain, empty)
    with pytest.raises(ValueError, match="AveragePool: activation 'Swish'"):
        run(DOMAIN, "AveragePool", 19, [X], kernel_shape=[2, 2], activation="Swish")


@pytest.mark.parametrize(("op", "since"), VERSIONS)
def test_every_drawn_case_runs_in_the_kernel_with_the_formulas_shapes(op: str, since: int) -> None:
    v = version(DOMAIN, op, since)
    dtype = cell_dtypes(v)[0][0]

    @settings(max_examples=6, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=op_cases(v, dtype))
    def check(case) -> None:  # type: ignore[no-untyped-def]
        shapes = [list(x.shape) if x is not None else None for x in case.inputs]
        assert not infer_shapes(v, shapes, case.node_attributes, case.values).problems
        outputs = run_kernel(v, case.inputs, case.attributes)
        for y, want in zip(outputs, case.expected_shapes, strict=False):
            assert want is None or list(y.shape) == want, case

    check()


def test_one_node_models_import_ai_onnx_at_the_nhwc_opset() -> None:
    """onnxruntime inlines DepthToSpace-28's function body at the model's ai.onnx opset: conform's one-node model
    imports ai.onnx at the nhwc version's opset (13 at least), as the layout transformer's models do."""
    from conformance.onnx_model import opset_imports_for

    assert opset_imports_for(version(DOMAIN, "DepthToSpace", 28)) == {DOMAIN: 28, "": 28}
    assert opset_imports_for(version(DOMAIN, "Conv", 1)) == {DOMAIN: 1, "": 13}
