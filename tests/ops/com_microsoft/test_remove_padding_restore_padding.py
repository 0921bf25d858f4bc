"""com.microsoft RemovePadding and RestorePadding: onnxruntime runs them on CUDA only, so the kernels are checked
against the layout onnxruntime's documentation spells out (three sequences of 1, 2 and 4 tokens padded to 4), against
each other (restoring what was removed gives the input with zeros at the padding), against an ai.onnx graph
(GatherND / ScatterND at the offsets) run by onnxruntime, and their shape formulas against their outputs; invalid
nodes are reported under their constraint ids."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.helpers import (
    Seeded,
    ShapeCase,
    assert_registry_ranges_exercised,
    formula_shapes,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    version,
)

DOMAIN = "com.microsoft"
f32 = Seeded(31).f32
COUNTS = np.array([1, 2, 4], np.int32)
DOC_OFFSETS = [0, 4, 5, 8, 9, 10, 11, 1, 2, 3, 6, 7]


def test_remove_padding_gives_the_documented_layout() -> None:
    x = f32(3, 4, 5)
    output, offsets, cumulated, longest = run(DOMAIN, "RemovePadding", 1, [x, COUNTS])
    assert offsets.dtype == np.int32 and offsets.shape == (3, 4)
    assert offsets.reshape(-1).tolist() == DOC_OFFSETS
    assert cumulated.tolist() == [0, 1, 3, 7] and longest.tolist() == [4]
    np.testing.assert_array_equal(output, x.reshape(12, 5)[DOC_OFFSETS[:7]])


def _scatter_gather_outputs(x: np.ndarray, offsets: np.ndarray, count: int) -> list[np.ndarray]:
    """onnxruntime on ai.onnx ops: the packed rows (GatherND at the first count offsets) and the restored tensor
    (ScatterND of them onto zeros)."""
    batch, seq, hidden = x.shape
    idx = offsets.reshape(-1)[:count].astype(np.int64).reshape(count, 1)
    nodes = [helper.make_node("Reshape", ["x", "rows_shape"], ["rows"]),
             helper.make_node("GatherND", ["rows", "idx"], ["packed"]),
             helper.make_node("Mul", ["rows", "zero"], ["zeros"]),
             helper.make_node("ScatterND", ["zeros", "idx", "packed"], ["restored_rows"]),
             helper.make_node("Reshape", ["restored_rows", "x_shape"], ["restored"])]
    inits = [helper.make_tensor("rows_shape", TensorProto.INT64, [2], [batch * seq, hidden]),
             helper.make_tensor("x_shape", TensorProto.INT64, [3], [batch, seq, hidden]),
             helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])]
    graph = helper.make_graph(nodes, "padding", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape)),
        helper.make_tensor_value_info("idx", TensorProto.INT64, [count, 1])],
        [helper.make_tensor_value_info("packed", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("restored", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return run_onnxruntime(model, {"x": x, "idx": idx})


@pytest.mark.parametrize(("batch", "seq", "counts"), [
    pytest.param(3, 4, [1, 2, 4], id="documented"),
    pytest.param(2, 3, [0, 3], id="empty_and_full"),
    pytest.param(1, 5, [5], id="no_padding"),
    pytest.param(4, 2, [1, 1, 0, 2], id="ragged"),
])
def test_kernels_match_onnxruntime_gather_and_scatter(batch: int, seq: int, counts: list[int]) -> None:
    x = f32(batch, seq, 3)
    count = np.array(counts, np.int32)
    output, offsets, cumulated, longest = run(DOMAIN, "RemovePadding", 1, [x, count])
    packed, restored = _scatter_gather_outputs(x, offsets, sum(counts))
    np.testing.assert_array_equal(output, packed)
    (back,) = run(DOMAIN, "RestorePadding", 1, [output, offsets])
    np.testing.assert_array_equal(back, restored)
    real = np.arange(seq)[None, :] < count[:, None]
    np.testing.assert_array_equal(back, np.where(real[..., None], x, 0))
    assert cumulated.tolist() == [0, *np.cumsum(counts).tolist()] and longest.tolist() == [max(counts)]
    assert formula_shapes(version(DOMAIN, "RemovePadding", 1), [x, count], {},
                          {"sequence_token_count": counts}) == [list(o.shape) for o in (output, offsets, cumulated,
                                                                                        longest)]
    assert formula_shapes(version(DOMAIN, "RestorePadding", 1), [output, offsets], {},
                          {"token_offset": offsets.reshape(-1).tolist()}) == [list(back.shape)]


def test_restore_padding_takes_offsets_in_any_order() -> None:
    tokens = f32(5, 2)
    offsets = np.array([[4, 0, 5], [2, 1, 3]], np.int32)
    (out,) = run(DOMAIN, "RestorePadding", 1, [tokens, offsets])
    flat = out.reshape(6, 2)
    np.testing.assert_array_equal(flat[[4, 0, 5, 2, 1]], tokens)
    np.testing.assert_array_equal(flat[3], [0, 0])


def test_fp16_stays_fp16() -> None:
    x = f32(2, 3, 4).astype(np.float16)
    output, offsets, _, _ = run(DOMAIN, "RemovePadding", 1, [x, np.array([2, 1], np.int32)])
    (back,) = run(DOMAIN, "RestorePadding", 1, [output, offsets])
    assert output.dtype == back.dtype == np.float16


def test_every_kernel_range_is_exercised() -> None:
    assert_registry_ranges_exercised(DOMAIN, "RemovePadding", {1})
    assert_registry_ranges_exercised(DOMAIN, "RestorePadding", {1})


def _remove(shape: list[int], counts: list[int]) -> ShapeCase:
    return shape_case("RemovePadding", 1, [shape, np.array(counts, np.int32)], {}, 4, domain=DOMAIN)


def _restore(shape: list[int], offsets: np.ndarray) -> ShapeCase:
    return shape_case("RestorePadding", 1, [shape, offsets.astype(np.int32)], {}, 1, domain=DOMAIN)


REJECTED = [
    (_remove([2, 3], [1, 2]), "removepadding_c1"),
    (_remove([2, 3, 4], [1, 2, 3]), "removepadding_c1"),
    (_remove([2, 3, 4], [1, 4]), "removepadding_c2"),
    (_remove([2, 3, 4], [-1, 2]), "removepadding_c2"),
    (_restore([7, 4], np.arange(6).reshape(2, 3)), "restorepadding_c1"),
    (_restore([2, 3, 4], np.arange(6).reshape(2, 3)), "restorepadding_c1"),
    (_restore([4, 4], np.array([[0, 1, 1], [2, 3, 4]])), "restorepadding_c2"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)
