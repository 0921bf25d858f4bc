"""The precision policy's bounds (`conformance.precision`): what a version lets an implementation compute in passes,
what it does not still fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from conformance.precision import narrowest_allowed, unit_roundoff
from conformance.registry import current_registry
from conformance.runner.checks import expected_outputs, output_problems
from conformance.strategies.case import Case
from opset.infer import resolve_attributes
from tests.helpers.conform_cli import run_and_report


def make_case(op: str, since: int, dtype: str, inputs: list[np.ndarray], given: dict[str, Any],
              names: list[str], outputs: list[str]) -> Case:
    version = current_registry().op("ai.onnx", op).version(since)
    attributes = resolve_attributes(version, given, [list(x.shape) for x in inputs])
    return Case(version, dtype, {"T": dtype, "U": "float"}, attributes, given, inputs, names, outputs,
                [list(inputs[0].shape)] + [None] * (len(outputs) - 1))


def batch_norm_case(dtype: type, seed: int = 0) -> tuple[Case, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 4, (3, 4, 5)).astype(dtype)
    scale, bias = rng.normal(0, 3, 4).astype(dtype), rng.normal(0, 3, 4).astype(dtype)
    mean, var = rng.normal(0, 4, 4).astype(dtype), rng.uniform(0.01, 2, 4).astype(dtype)
    element = {np.float16: "float16", np.float64: "double", ml_dtypes.bfloat16: "bfloat16"}[dtype]
    case = make_case("BatchNormalization", 15, element, [x, scale, bias, mean, var], {},
                     ["X", "scale", "B", "input_mean", "input_var"], ["Y"])
    return case, [x, scale, bias, mean, var]


def batch_norm_in(compute: type, inputs: list[np.ndarray], epsilon: float = 1e-5) -> np.ndarray:
    """BatchNormalization computed step by step in `compute`, every intermediate rounded to it (as onnx.reference
    does for float16: numpy rounds each operation's result to the arrays' type)."""
    x, scale, bias, mean, var = (a.astype(compute) for a in inputs)
    shape = (1, -1, 1)
    eps = np.asarray(epsilon, compute)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + bias.reshape(shape)
    return y.astype(inputs[0].dtype)


def batch_norm_folded_in(compute: type, inputs: list[np.ndarray], epsilon: float = 1e-5) -> np.ndarray:
    """The same, folded into one multiply-add per element (y = x * k + (b - m * k)), as many runtimes do."""
    x, scale, bias, mean, var = (a.astype(compute) for a in inputs)
    k = scale / np.sqrt(var + np.asarray(epsilon, compute))
    y = x * k.reshape(1, -1, 1) + (bias - mean * k).reshape(1, -1, 1)
    return y.astype(inputs[0].dtype)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("compute", [batch_norm_in, batch_norm_folded_in])
def test_float16_batch_normalization_computed_in_float16_passes(seed: int, compute: Any) -> None:
    case, inputs = batch_norm_case(np.float16, seed)
    expected = expected_outputs(case)
    assert expected is not None
    actual = compute(np.float16, inputs)
    assert output_problems(case, [actual], expected) == []


def test_the_policy_is_what_lets_float16_batch_normalization_pass() -> None:
    """The same float16 computation fails the plain float16 tolerance: the bound is the policy's, not the tolerance's
    (seed 1 draws a case where float16 intermediates land a few units in the last place away)."""
    from conformance.compare import compare_arrays, tolerance_for

    misses = 0
    for seed in range(6):
        case, inputs = batch_norm_case(np.float16, seed)
        expected = expected_outputs(case)
        assert expected is not None
        plain = compare_arrays(batch_norm_in(np.float16, inputs), expected[0], tolerance_for(case.version, "float16"))
        misses += not plain.ok
    assert misses > 0


def test_bfloat16_batch_normalization_computed_in_bfloat16_passes() -> None:
    for seed in range(6):
        case, inputs = batch_norm_case(ml_dtypes.bfloat16, seed)
        expected = expected_outputs(case)
        assert expected is not None
        assert output_problems(case, [batch_norm_in(ml_dtypes.bfloat16, inputs)], expected) == []


def test_a_double_batch_normalization_computed_in_float32_fails() -> None:
    case, inputs = batch_norm_case(np.float64)
    expected = expected_outputs(case)
    assert expected is not None
    assert output_problems(case, [batch_norm_in(np.float64, inputs)], expected) == []
    problems = output_problems(case, [batch_norm_in(np.float32, inputs)], expected)
    assert problems and "rtol=1e-12" in problems[0]


def test_a_float16_batch_normalization_with_a_wrong_value_still_fails() -> None:
    case, inputs = batch_norm_case(np.float16)
    expected = expected_outputs(case)
    assert expected is not None
    wrong = batch_norm_in(np.float16, inputs)
    wrong[1, 2, 3] += np.float16(0.25) + abs(wrong[1, 2, 3]) * np.float16(0.05)
    problems = output_problems(case, [wrong], expected)
    assert problems and "computing in float16 allows" in problems[0]


def layer_norm_case(stash_type: int, seed: int = 0) -> tuple[Case, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    x = rng.normal(3, 2, (4, 6))
    scale, bias = rng.normal(0, 2, 6), rng.normal(0, 2, 6)
    case = make_case("LayerNormalization", 17, "double", [x, scale, bias], {"stash_type": stash_type},
                     ["X", "Scale", "B"], ["Y"])
    return case, [x, scale, bias]


def layer_norm_stage_one_in(stash: type, x: np.ndarray, scale: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """LayerNormalization over the last axis, stage one in `stash` (the text's two passes, each summed from the last
    element to the first: another order than the reference's), stage two in double."""
    xs = x.astype(stash)
    n = stash(xs.shape[-1])
    mean = xs[..., ::-1].cumsum(axis=-1, dtype=stash)[..., -1:] / n
    deviation = xs - mean
    variance = (deviation * deviation)[..., ::-1].cumsum(axis=-1, dtype=stash)[..., -1:] / n
    normalized = (deviation / np.sqrt(variance + stash(1e-5))).astype(np.float64)
    return normalized * scale + bias


@pytest.mark.parametrize("seed", range(4))
def test_a_double_layer_normalization_is_held_to_what_a_float32_stash_allows(seed: int) -> None:
    case, (x, scale, bias) = layer_norm_case(stash_type=1, seed=seed)
    expected = expected_outputs(case)
    assert expected is not None
    assert narrowest_allowed(case.version, "double", case.attributes) == "float"
    assert output_problems(case, [layer_norm_stage_one_in(np.float32, x, scale, bias)], expected[:1]) == []
    assert output_problems(case, [layer_norm_stage_one_in(np.float64, x, scale, bias)], expected[:1]) == []
    # a float16 stage one is narrower than stash_type=1 allows
    problems = output_problems(case, [layer_norm_stage_one_in(np.float16, x, scale, bias)], expected[:1])
    assert problems


def test_unit_roundoff_of_the_float_types() -> None:
    assert unit_roundoff("float16") == 2.0**-11
    assert unit_roundoff("bfloat16") == 2.0**-8
    assert unit_roundoff("float") == 2.0**-24
    assert unit_roundoff("double") == 2.0**-53


def test_a_version_without_the_policy_allows_nothing_narrower() -> None:
    relu = current_registry().op("ai.onnx", "Relu").version(14)
    assert relu.precision is None
    assert narrowest_allowed(relu, "float16", {}) is None
    bn = current_registry().op("ai.onnx", "BatchNormalization").version(15)
    assert narrowest_allowed(bn, "float16", {}) == "float16"
    assert narrowest_allowed(bn, "double", {}) is None


@pytest.mark.slow
def test_conform_passes_what_the_policy_allows_and_fails_what_it_does_not(tmp_path: Path) -> None:
    """End to end: float16 BatchNormalization in float16 and double LayerNormalization with a float32 stage one pass
    every cell; the backend computing double BatchNormalization in float32 fails its double cells."""
    result, data = run_and_report(tmp_path / "allowed", "tests.conformance.wrong_backends.narrow_but_allowed",
                                  "--op", "BatchNormalization,LayerNormalization", "--domain", "ai.onnx",
                                  "--max-examples", "10")
    assert result.returncode == 0, result.stdout[-3000:]
    assert data["cells"]["ai.onnx@15::BatchNormalization[float16]"]["status"] == "pass"
    assert data["cells"]["ai.onnx@17::LayerNormalization[double]"]["status"] == "pass"
    result, data = run_and_report(tmp_path / "wrong", "tests.conformance.wrong_backends.double_computes_in_float32",
                                  "--op", "BatchNormalization", "--domain", "ai.onnx", "--max-examples", "5")
    assert result.returncode == 1
    assert data["cells"]["ai.onnx@15::BatchNormalization[double]"]["status"] == "fail"
    assert data["cells"]["ai.onnx@15::BatchNormalization[float16]"]["status"] == "pass"
