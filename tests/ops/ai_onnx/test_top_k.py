"""TopK: the kernel against onnx.reference and onnxruntime (tie order, largest, K), the shape formulas against
onnx, rejected nodes."""

from __future__ import annotations

import numpy as np
import pytest

from opset.formula import Sym
from tests.helpers import (
    OracleCase,
    Seeded,
    all_since,
    i64,
    inferred,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    shape_tests,
    symbolic_shape,
    version,
)

OP = "TopK"
data = Seeded(4301)
f32 = data.f32
TIES = np.array([[1, 3, 3, 2, 3, 0], [2, 2, 1, 1, 2, 1]], np.float32)  # equal values: lower index first

CASES = [
    OracleCase(OP, dict(k=2), [f32(3, 4, 5)], (1,), n_out=2, id="attr"),
    OracleCase(OP, dict(k=4, axis=1), [TIES], (1,), n_out=2, id="attr_ties"),
    OracleCase(OP, {}, [f32(3, 4, 5), i64(3)], all_since(OP, 10), n_out=2, id="input"),
    OracleCase(OP, dict(axis=-2), [f32(3, 4, 5), i64(4)], all_since(OP, 10), n_out=2, id="negative_axis"),
    OracleCase(OP, {}, [TIES, i64(4)], all_since(OP, 10), n_out=2, id="ties"),
    OracleCase(OP, dict(largest=0), [TIES, i64(5)], all_since(OP, 11), n_out=2, id="smallest_ties"),
    OracleCase(OP, dict(axis=0, largest=0), [data.ints(0, 4, (6, 3), np.uint8), i64(4)], all_since(OP, 11),
               n_out=2, id="uint8_smallest"),
    OracleCase(OP, {}, [data.ints(-3, 3, (2, 7), np.int64), i64(7)], all_since(OP, 11), n_out=2, id="int64_all"),
    OracleCase(OP, {}, [f32(2, 3), i64(0)], all_since(OP, 10), n_out=2, id="k0"),
    OracleCase(OP, {}, [data.f32(3, 6).astype(np.float16), i64(3)], all_since(OP, 11), n_out=2, oracle="ort",
               id="float16_ort"),
]


test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES)


def test_unsorted_gives_the_same_elements_as_onnxruntime() -> None:
    """sorted=0 leaves the order open (reading topk_r1): the same k elements, index for index."""
    x = f32(4, 9)
    values, indices = run("ai.onnx", OP, 11, [x, i64(4)], sorted=0)
    model, feeds = one_node_model(OP, 11, [x, i64(4)], {"sorted": 0}, 2)
    theirs_values, theirs_indices = run_onnxruntime(model, feeds)
    for row in range(4):
        ours = dict(zip(indices[row].tolist(), values[row].tolist(), strict=True))
        theirs = dict(zip(theirs_indices[row].tolist(), theirs_values[row].tolist(), strict=True))
        assert ours == theirs


@pytest.mark.parametrize(("since", "inputs", "attrs", "message"), [
    pytest.param(1, [np.zeros((2, 3), np.float32)], {"k": 4}, "must lie in", id="k_too_large"),
    pytest.param(11, [np.zeros((2, 3), np.float32), i64(1, 2)], {}, "exactly one", id="two_values"),
])
def test_kernel_rejects_invalid_input(since: int, inputs: list[np.ndarray], attrs: dict[str, int],
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run("ai.onnx", OP, since, inputs, **attrs)


SHAPES = [shape_case(OP, 1, [[2, 3, 4]], attrs, n_out=2)
          for attrs in ({"k": 2}, {"k": 3, "axis": 1}, {"k": 1, "axis": -3})]
SHAPES += [shape_case(OP, opset, [[2, 3, 4], i64(k)], attrs, n_out=2) for opset in all_since(OP, 10)
           for k, attrs in ((2, {}), (0, {}), (3, {"axis": 1}), (2, {"axis": -3}))]
SHAPES += [shape_case(OP, 11, [[2, 3, 4], i64(4)], {"largest": 0, "sorted": 0}, n_out=2)]

REJECTED = [(shape_case(OP, 1, [[2, 3]], attrs), check)
            for attrs, check in (({"k": 4}, "topk_c2"), ({"k": 1, "axis": 2}, "topk_c1"), ({"k": 0}, "attr_range"))]
REJECTED += [(shape_case(OP, opset, [[2, 3], i64(k)], attrs), check) for opset in all_since(OP, 10)
             for k, attrs, check in ((4, {}, "topk_c2"), (-1, {}, "topk_c3"), (1, {"axis": -3}, "topk_c1"))]
REJECTED += [(shape_case(OP, 11, [[], i64(0)]), "topk_c1")]


test_shape_formula_matches_onnx = shape_tests(SHAPES)


test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_symbolic_batch_dim() -> None:
    assert symbolic_shape(OP, 11, [[Sym("N"), 3, 4], [1]], {}, {"K": [2]}) == ["N", "3", "2"]


def test_unsorted_is_the_other_reading() -> None:
    found = inferred(version("ai.onnx", OP, 11), [[2, 3], [1]], {"sorted": 0}, {"K": [2]}).readings
    assert [r.reading.id for r in found] == ["topk_r1"]
    assert inferred(version("ai.onnx", OP, 11), [[2, 3], [1]], {}, {"K": [2]}).readings == []


def test_without_the_value_of_k_its_dim_is_unknown() -> None:
    (values, indices) = inferred(version("ai.onnx", OP, 11), [[2, 3, 4], [1]], {"axis": 1}).outputs
    assert values is not None and [str(d) for d in values] == ["2", "?k", "4"] and indices == values
