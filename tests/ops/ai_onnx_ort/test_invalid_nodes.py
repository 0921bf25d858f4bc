"""ai.onnx.ort nodes that onnxruntime's kernels refuse are refused by the registry too, so `conform` never draws them:
Crop's borders count pixels (never negative; an empty crop is fine, as onnxruntime computes it), DynamicSlice without
axes slices at most rank axes, GivenTensorFill gives exactly one value per output element (in its input's type),
ScaledTanh and ParametricSoftplus need both alpha and beta."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from onnx import TensorProto, helper

from conformance.kernels.registry import run_kernel
from conformance.strategies import cell_dtypes, op_cases
from opset.infer import infer_shapes, validate_attributes
from tests.helpers import formula_shapes, problem_checks, run, version

DOMAIN = "ai.onnx.ort"
X4 = np.random.default_rng(3).standard_normal((2, 5, 5, 4)).astype(np.float32)


@pytest.mark.parametrize("since", [1, 10])
def test_a_negative_crop_border_is_refused_by_schema_and_kernel(since: int) -> None:
    assert problem_checks(version(DOMAIN, "Crop", since), [X4], {"border": [-1, 1, 2, 2]})
    with pytest.raises(ValueError, match="cannot be negative"):
        run(DOMAIN, "Crop", 1, [X4], border=[-1, 1, 2, 2])


def test_an_empty_crop_has_onnxruntimes_shape() -> None:
    import onnxruntime as ort

    border = [1, 2, 3, 3]  # width 4 - 1 - 3 = 0
    node = helper.make_node("Crop", ["x"], ["y"], border=border)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(X4.shape))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)])
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": X4})
    (got,) = run(DOMAIN, "Crop", 1, [X4], border=border)
    assert list(got.shape) == list(want.shape) == formula_shapes(version(DOMAIN, "Crop", 1), [X4],
                                                                  {"border": border})[0] == [2, 5, 0, 0]


def test_dynamic_slice_without_axes_cannot_slice_more_axes_than_the_rank() -> None:
    starts = np.zeros(5, np.int64)
    checks = problem_checks(version(DOMAIN, "DynamicSlice", 1), [X4, starts, starts + 1])
    assert "dynamicslice_c3" in checks
    assert not problem_checks(version(DOMAIN, "DynamicSlice", 1), [X4, starts[:4], starts[:4] + 1])


def test_given_tensor_fill_needs_one_value_per_element_and_keeps_its_inputs_type() -> None:
    v = version(DOMAIN, "GivenTensorFill", 1)
    assert "giventensorfill_c4" in problem_checks(v, [None], {"input_as_shape": 0})  # a scalar needs its value
    assert not problem_checks(v, [None], {"shape": [0]})  # an empty output needs none
    (y,) = run(DOMAIN, "GivenTensorFill", 1, [np.zeros((2, 1))], values=[1.5, -2.0])
    assert y.dtype == np.float64 and y.tolist() == [[1.5], [-2.0]]


@pytest.mark.parametrize("op", ["ScaledTanh", "ParametricSoftplus"])
@pytest.mark.parametrize("since", [1, 10])
def test_alpha_and_beta_are_required(op: str, since: int) -> None:
    v = version(DOMAIN, op, since)
    assert validate_attributes(v, {"beta": 0.0}, [list(X4.shape)])
    assert not validate_attributes(v, {"alpha": 1.0, "beta": 0.0}, [list(X4.shape)])


DRAWN = [(op, since) for op in ("Crop", "DynamicSlice", "GivenTensorFill", "ScaledTanh", "ParametricSoftplus")
         for since in (1, 10)]


@pytest.mark.parametrize(("op", "since"), DRAWN)
def test_every_drawn_case_runs_in_the_kernel_with_the_formulas_shapes(op: str, since: int) -> None:
    v = version(DOMAIN, op, since)
    for dtype in cell_dtypes(v)[0][:2]:
        @settings(max_examples=15, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
        @given(case=op_cases(v, dtype))
        def check(case) -> None:  # type: ignore[no-untyped-def]
            shapes = [list(x.shape) if x is not None else None for x in case.inputs]
            assert not infer_shapes(v, shapes, case.node_attributes, case.values).problems
            outputs = run_kernel(v, case.inputs, case.attributes)
            for y, want in zip(outputs, case.expected_shapes, strict=False):
                assert want is None or list(y.shape) == want, case  # None: from a float input's values

        check()
