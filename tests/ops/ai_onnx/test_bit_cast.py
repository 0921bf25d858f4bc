"""BitCast: every same-width pair of element types (ml_dtypes' too) against onnx.reference, the shape formula
against onnx, a width mismatch (which only the kernel can see), and the validator's output type."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

from conformance.element_types import bit_width, numpy_dtype
from conformance.registry import current_registry
from opset.cells import allowed_elements
from opset.dtypes import ELEMENT_TYPES
from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    node_diagnostics,
    oracle_tests,
    rejection_tests,
    run,
    run_onnx_reference,
    shape_case,
    shape_tests,
)

OP = "BitCast"
ELEMENTS = [e for e in allowed_elements(current_registry().resolve("ai.onnx", OP, 26), "T1") if e != "string"]
DTYPE = {e: numpy_dtype(e) for e in ELEMENTS}
CODE = {e: ELEMENT_TYPES[e][0] for e in ELEMENTS}

CASES = [
    OracleCase(OP, dict(to=CODE["int32"]), [np.array([[1.0, -2.0], [0.5, -0.0]], np.float32)], (26,), id="f32_i32"),
    OracleCase(OP, dict(to=CODE["float16"]), [np.array([0, 1, -1, 15360, -1024], np.int16)], (26,), id="i16_f16"),
    OracleCase(OP, dict(to=CODE["bool"]), [np.array([0, 1, 1], np.uint8)], (26,), id="u8_bool"),
    OracleCase(OP, dict(to=CODE["uint64"]), [np.array(-1.5, np.float64)], (26,), id="scalar"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def _bits(source: str) -> np.ndarray:
    """Bytes that are valid in every type of the source's width (0 and 1 only where bool shares it)."""
    if DTYPE[source].itemsize == 1:
        return np.array([0, 1, 1, 0], np.uint8).view(DTYPE[source])
    words = np.random.default_rng(7).integers(0, 256, size=4 * DTYPE[source].itemsize, dtype=np.uint8)
    values = words.view(DTYPE[source])
    if source in ("float16", "float", "double"):
        values = np.where(np.isnan(values), 0, values).astype(DTYPE[source])  # NaN payloads are no value
    return values


def test_every_same_width_pair_matches_onnx_reference() -> None:
    pairs = [(s, t) for s in ELEMENTS for t in ELEMENTS if bit_width(s) == bit_width(t)]
    nodes, inputs, feeds = [], [], {}
    for s, t in pairs:
        name = f"x_{s}_{t}"
        feeds[name] = _bits(s)
        inputs.append(helper.make_tensor_value_info(name, CODE[s], list(feeds[name].shape)))
        nodes.append(helper.make_node(OP, [name], [f"y_{s}_{t}"], to=CODE[t]))
    outputs = [onnx.ValueInfoProto(name=n.output[0]) for n in nodes]
    model = helper.make_model(helper.make_graph(nodes, "pairs", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", 26)])
    want = run_onnx_reference(model, feeds)
    wrong = []
    for (s, t), expected in zip(pairs, want, strict=True):
        (got,) = run("ai.onnx", OP, 26, [feeds[f"x_{s}_{t}"]], to=CODE[t])
        if got.dtype != expected.dtype or got.tobytes() != expected.tobytes():
            wrong.append(f"{s}->{t}")
    assert len(pairs) > 30 and not wrong, wrong


def test_a_width_mismatch_is_refused_by_the_kernel() -> None:
    """The registry cannot state it (formulas see shapes, not element types), so the kernel says it."""
    with pytest.raises(ValueError, match="widths must be equal"):
        run("ai.onnx", OP, 26, [np.zeros(2, np.float32)], to=CODE["int64"])


SHAPES = [shape_case(OP, 26, [shape], {"to": CODE["int32"]}) for shape in ([2, 3], [], [0, 5])]
REJECTED = [(shape_case(OP, 26, [[2]], {"to": ELEMENT_TYPES["string"][0]}), "attr_allowed")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_validator_takes_the_output_type_from_to() -> None:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT16, [4])
    graph = helper.make_graph([helper.make_node(OP, ["x"], ["y"], to=CODE["uint16"])], "g", [x],
                              [onnx.ValueInfoProto(name="y")])
    result = check_model(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 26)]))
    assert node_diagnostics(result.diagnostics) == [] and result.facts["y"].type == "tensor(uint16)"
