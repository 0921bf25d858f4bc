"""SequenceInsert: the kernel against onnx.reference (positions from the front and the back, the append default,
the 1-D position onnx's own node test uses), the shape formula against onnx's shape inference, every constraint,
and the validator's check that the tensor has the sequence's element type."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from opset.validate import check_model
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    inferred,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run_onnx_reference,
    shape_case,
    shape_tests,
    version,
)

OP = "SequenceInsert"
data = Seeded(1234)
SEQ = [data.f32(2, 3), data.f32(4, 3), data.f32(1, 3)]
T = data.f32(5, 3)


def at(p: int, dtype: type = np.int64) -> np.ndarray:
    return np.array(p, dtype=dtype)


CASES = [
    OracleCase(OP, {}, [SEQ, T], all_since(OP), id="append"),
    OracleCase(OP, {}, [SEQ, T, at(0)], all_since(OP), id="front"),
    # position n appends (onnx.reference wraps n around to the front: reading sequenceinsert_r1)
    OracleCase(OP, {}, [SEQ, T, at(3, np.int32)], all_since(OP), oracle="ort", id="at_n_int32"),
    OracleCase(OP, {}, [SEQ, T, at(-1)], all_since(OP), id="before_last"),
    OracleCase(OP, {}, [SEQ, T, at(-3)], all_since(OP), id="minus_n"),
    OracleCase(OP, {}, [SEQ, T, np.array([1], np.int64)], all_since(OP), id="position_1d"),
    OracleCase(OP, {}, [[], T, at(0)], all_since(OP), input_types={0: "seq(tensor(float))"}, oracle="ort",
               id="into_empty"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


SHAPES = [
    shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3], at(1)]),
    shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3], at(-2)]),
    shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3]]),
]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


REJECTED = [
    (shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3], at(3)]), "sequenceinsert_c1"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3], at(-3)]), "sequenceinsert_c1"),
    (shape_case(OP, 11, [[[2, 3], [4, 3]], [5, 3], np.array([0, 1], np.int64)]), "sequenceinsert_c2"),
]


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_a_negative_position_inserts_before_the_tensor_it_counts_to() -> None:
    from tests.helpers import run

    (out,) = run("ai.onnx", OP, 11, [SEQ, T, at(-1)])
    assert [x.shape for x in out] == [(2, 3), (4, 3), (5, 3), (1, 3)]


@pytest.mark.parametrize(("elem", "ok"), [(TensorProto.FLOAT, True), (TensorProto.INT64, False)])
def test_the_validator_checks_the_tensor_against_the_sequence(elem: int, ok: bool) -> None:
    """T follows element(S): a tensor of another element type than the sequence's is a type mismatch."""
    s = helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2])
    t = helper.make_tensor_value_info("t", elem, [2])
    node = helper.make_node(OP, ["s", "t"], ["o"])
    out = helper.make_tensor_sequence_value_info("o", TensorProto.FLOAT, None)
    model = helper.make_model(helper.make_graph([node], "g", [s, t], [out]),
                              opset_imports=[helper.make_opsetid("", 11)])
    checks = [d.check for d in check_model(model).diagnostics]
    assert checks == ([] if ok else ["type_mismatch"]), checks


def test_onnx_reference_follows_reading_r1_at_position_n() -> None:
    """onnx.reference inserts at (p + n) % n, so position n lands at the front: the reading's shapes, where ours
    append."""
    v = version("ai.onnx", OP, 11)
    (reading,) = [r for r in v.readings if r.id == "sequenceinsert_r1"]
    model, feeds = one_node_model(OP, 11, [SEQ, T, at(3)], {}, 1)
    (theirs,) = run_onnx_reference(model, feeds)
    result = inferred(v, [SEQ, T, at(3)], {}, {"position": [3]})
    (found,) = result.readings
    assert found.reading is reading and found.outputs[0] == [list(x.shape) for x in theirs]
    assert result.outputs[0] == [[2, 3], [4, 3], [1, 3], [5, 3]] != found.outputs[0]
