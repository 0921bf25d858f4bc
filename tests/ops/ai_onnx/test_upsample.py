"""Upsample: the kernel against onnx.reference/onnxruntime, the shape formula against onnx, rejected nodes."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    oracle_outputs,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

OP = "Upsample"
XS = Seeded(1234).f32(1, 2, 3, 4)


def scales(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


# the reference implements nearest with integer scales only; linear is checked against onnxruntime.
# Upsample-1 (onnx's experimental version) has no oracle but its text: nearest repeats, bilinear as version 9's linear.
LINEAR_9 = OracleCase(OP, dict(mode="linear"), [XS, scales(1, 1, 2, 1.5)], (9,), oracle="ort")
CASES = [
    OracleCase(OP, dict(scales=[1.0, 1.0, 2.0, 3.0]), [XS], all_since(OP, 7, 8), oracle="ort", id="nearest_attr"),
    OracleCase(OP, dict(height_scale=2.0, width_scale=3.0, mode="nearest"), [XS], all_since(OP, 1, 6),
               oracle=lambda: [XS.repeat(2, axis=2).repeat(3, axis=3)], id="v1_nearest"),
    OracleCase(OP, dict(height_scale=2.0, width_scale=1.5, mode="bilinear"), [XS], all_since(OP, 1, 6),
               oracle=lambda: oracle_outputs(LINEAR_9, 9), id="v1_bilinear"),
    OracleCase(OP, dict(mode="linear", scales=[1.0, 1.0, 2.0, 2.5]), [XS], all_since(OP, 7, 8), oracle="ort",
               id="linear_attr"),
    OracleCase(OP, {}, [XS, scales(1, 1, 2, 3)], all_since(OP, 9), id="nearest_input"),
    OracleCase(OP, dict(mode="linear"), [XS, scales(1, 1, 2, 1.5)], all_since(OP, 9), oracle="ort@9",
               id="linear_input"),
    OracleCase(OP, dict(mode="nearest"), [XS, scales(1, 1, 1.5, 2.5)], all_since(OP, 9), oracle="ort@9",
               id="nearest_fraction"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


# the scales are an attribute at 7, a constant input from 9
SHAPES = [shape_case(OP, 7, [[1, 2, 3, 5]], {"scales": s, "mode": "nearest"})
          for s in ([1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 1.5, 2.7])]
SHAPES += [shape_case(OP, 9, [[1, 2, 3, 5], scales(*s)], {"mode": "nearest"})
           for s in ([1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 1.5, 2.7])]

REJECTED = [
    (shape_case(OP, 9, [[1, 2], scales(1, 1, 2)]), "upsample_c1"),
    (shape_case(OP, 9, [[1, 2], scales(1, 0.5)]), "upsample_c2"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_onnxs_experimental_version_1_validates_in_an_opset_6_model() -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 4)
    node = helper.make_node(OP, ["x"], ["y"], height_scale=2.0, width_scale=1.5, mode="bilinear")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y]), opset_imports=[helper.make_opsetid("", 6)])
    result = check_model(model)
    assert result.diagnostics == [] and result.facts["y"].shape == (1, 2, 6, 7)
    # version 7's word, not version 1's
    next(a for a in model.graph.node[0].attribute if a.name == "mode").s = b"linear"
    assert [d.check for d in check_model(model).diagnostics] == ["attr_allowed"]
