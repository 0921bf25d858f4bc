"""Output `value` formulas (the values the validator propagates through shape computations: Shape, Gather,
Concat, Unsqueeze ...) agree with the reference kernels on drawn cases, and carry shapes through a model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from conformance.backends.reference import reference_outputs
from conformance.strategies.cases import op_cases
from opset.cells import cell_dtypes
from opset.infer import infer_shapes
from opset.model import OpVersion
from opset.validate import check_model
from opset.validate.values import value_entry
from tests.helpers import node_diagnostics, registry


def _versions_with_values() -> list[OpVersion]:
    return [v for op in registry().ops.values() for v in op.versions
            if any(p.value is not None for p in v.outputs) and op.status.state != "removed"]


def _int_cell(v: OpVersion) -> str | None:
    dtypes, _ = cell_dtypes(v)
    return next((d for d in ("int64", "int32") if d in dtypes), None)


VERSIONS = [v for v in _versions_with_values() if _int_cell(v) is not None]


def test_some_versions_carry_value_formulas() -> None:
    names = {v.name for v in VERSIONS}
    assert {"Identity", "Concat", "Reshape", "Unsqueeze"} <= names, sorted(names)


@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: v.signature)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_value_formula_agrees_with_the_kernel(version: OpVersion, data: st.DataObject) -> None:
    dtype = _int_cell(version)
    assert dtype is not None
    case = data.draw(op_cases(version, dtype))
    values = {name: np.asarray(x).reshape(-1).tolist()
              for name, x in zip([p.name for p in version.inputs], case.inputs, strict=False) if x is not None}
    shapes = [list(x.shape) if x is not None else None for x in case.inputs]
    result = infer_shapes(version, shapes, case.attributes, values)
    outputs = reference_outputs(version, list(case.inputs), case.attributes)
    for i, computed in enumerate(result.values):
        if computed is not None and i < len(outputs):
            assert computed == np.asarray(outputs[i]).reshape(-1).tolist(), (version.signature, case.describe())


def test_values_carry_shapes_through_a_model() -> None:
    """Concat of constant pieces feeds Reshape: the reshaped shape is known (symbolically) without running."""
    ints = {"a": np.array([2], np.int64), "b": np.array([-1], np.int64), "k": np.array(3, np.int64),
            "ax": np.array([0], np.int64)}
    nodes = [helper.make_node("Concat", ["a", "b"], ["s"], axis=0), helper.make_node("Reshape", ["x", "s"], ["y"]),
             helper.make_node("Unsqueeze", ["k", "ax"], ["k1"]), helper.make_node("Concat", ["k1", "b"], ["s3"],
                                                                                   axis=0),
             helper.make_node("Reshape", ["x", "s3"], ["z"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4])],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("y", "z")],
                              [numpy_helper.from_array(v, n) for n, v in ints.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    result = check_model(model)
    assert not node_diagnostics(result.diagnostics)
    assert value_entry(result.facts["y"])["shape"] == [2, "6*N"]
    assert value_entry(result.facts["z"])["shape"] == [3, "4*N"]
