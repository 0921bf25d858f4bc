"""CastLike: the kernel against onnx.reference and onnxruntime (every numpy pair), the shape formula against onnx,
disallowed attributes, and the validator's output type (target_type's)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

from opset.dtypes import CODE_TO_ELEMENT, ELEMENT_TYPES, numpy_name
from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    all_since,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    shape_tests,
)

OP = "CastLike"
NUMPY_ELEMENTS = ("float16", "float", "double", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "bool")  # ml_dtypes' types: Cast's tests (CastLike converts through the same function)
DTYPE = {e: np.dtype(numpy_name(e) or e) for e in NUMPY_ELEMENTS}
X = np.array([[-3.75, -0.5, 0.0, 1.25], [2.5, 3.0, 100.0, -100.0]], np.float32)

CASES = [
    OracleCase(OP, {}, [X, np.zeros(1, np.int8)], all_since(OP), id="float_to_int8"),
    OracleCase(OP, {}, [np.array([-70000, -1, 0, 7, 300, 70000], np.int32), np.ones((2, 2), np.float16)],
               all_since(OP), id="int32_to_float16"),
    OracleCase(OP, {}, [np.array([True, False]), np.zeros((), np.float64)], all_since(OP), id="bool_to_double"),
    OracleCase(OP, {}, [np.array([200, -129, 127], np.int16), np.zeros(3, np.int8)], all_since(OP), id="wraps"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _values(source: str, target: str) -> np.ndarray:
    if source == "bool":
        return np.array([True, False])
    if source in ("float16", "float", "double"):
        low = 0.0 if target.startswith("uint") else -3.75  # a negative float is out of an unsigned type's range
        return np.linspace(low, 3.75, 9).astype(DTYPE[source])
    info = np.iinfo(DTYPE[source])  # type: ignore[type-var]
    picks = [info.min, 0, 1, 200, 255, 256, info.max]
    return np.array([v for v in picks if info.min <= v <= info.max], dtype=object).astype(DTYPE[source])


def test_every_numpy_pair_matches_onnxruntime() -> None:
    pairs = [(s, t) for s in NUMPY_ELEMENTS for t in NUMPY_ELEMENTS]
    nodes, inputs, feeds = [], [], {}
    for s, t in pairs:
        x, like = f"x_{s}_{t}", f"like_{s}_{t}"
        feeds[x], feeds[like] = _values(s, t), np.zeros(1, DTYPE[t])
        inputs += [helper.make_tensor_value_info(x, ELEMENT_TYPES[s][0], list(feeds[x].shape)),
                   helper.make_tensor_value_info(like, ELEMENT_TYPES[t][0], [1])]
        nodes.append(helper.make_node(OP, [x, like], [f"y_{s}_{t}"]))
    outputs = [onnx.ValueInfoProto(name=n.output[0]) for n in nodes]
    model = helper.make_model(helper.make_graph(nodes, "pairs", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    want = run_onnxruntime(model, feeds)
    wrong = []
    for (s, t), expected in zip(pairs, want, strict=True):
        (got,) = run("ai.onnx", OP, 21, [feeds[f"x_{s}_{t}"], feeds[f"like_{s}_{t}"]])
        if got.dtype != expected.dtype or not np.array_equal(got, expected):
            wrong.append(f"{s}->{t}: {got.tolist()} vs {expected.tolist()}")
    assert not wrong, "; ".join(wrong)


SHAPES = [shape_case(OP, v, [shape, [1]]) for v in (15, 19, 25) for shape in ([2, 3], [], [0, 4])]
REJECTED = [
    (shape_case(OP, 19, [[2], [1]], {"saturate": 3}), "attr_allowed"),
    (shape_case(OP, 24, [[2], [1]], {"round_mode": "even"}), "attr_allowed"),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


@pytest.mark.parametrize("target", [onnx.TensorProto.INT8, onnx.TensorProto.BOOL])
def test_validator_takes_the_output_type_from_target_type(target: int) -> None:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3, "N"])
    like = helper.make_tensor_value_info("like", target, [1])
    graph = helper.make_graph([helper.make_node(OP, ["x", "like"], ["y"])], "g", [x, like],
                              [onnx.ValueInfoProto(name="y")])
    result = check_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]))
    assert node_diagnostics(result.diagnostics) == []
    assert result.facts["y"].type == f"tensor({CODE_TO_ELEMENT[target]})"
    assert [str(d) for d in result.facts["y"].shape or ()] == ["3", "N"]
