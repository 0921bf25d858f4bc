"""ZipMap: the kernel against onnxruntime (string and int64 labels, [N, C] and [C], a repeated label), rejected
nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    Seeded,
    inferred,
    node_diagnostics,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    run_onnxruntime,
    shape_case,
    version,
)

DOMAIN = "ai.onnx.ml"
OP = "ZipMap"
data = Seeded(48)


def case(x: np.ndarray, attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(data.f32(3, 2), {"classlabels_strings": ["no", "yes"]}, "strings"),
    case(data.f32(4, 3), {"classlabels_int64s": [7, -1, 3]}, "ints"),
    case(data.f32(3), {"classlabels_int64s": [7, -1, 3]}, "vector_is_one_row"),
    case(data.f32(2, 3), {"classlabels_strings": ["a", "b", "a"]}, "repeated_label"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

REJECTED = [
    (shape_case(OP, 1, [[2, 3]], {}, domain=DOMAIN), "zipmap_c1"),
    (shape_case(OP, 1, [[2, 2]], {"classlabels_strings": ["a", "b"], "classlabels_int64s": [1, 2]}, domain=DOMAIN),
     "zipmap_c1"),
    (shape_case(OP, 1, [[2, 1, 2]], {"classlabels_int64s": [1, 2]}, domain=DOMAIN), "zipmap_c2"),
    (shape_case(OP, 1, [[2, 3]], {"classlabels_int64s": [1, 2]}, domain=DOMAIN), "zipmap_c3"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_values_are_float_scalars_by_label() -> None:
    (maps,) = run(DOMAIN, OP, 1, [np.array([[0.25, 0.75]], np.float32)], classlabels_int64s=[5, 3])
    assert maps == [{5: 0.25, 3: 0.75}]
    assert all(isinstance(v, np.float32) for v in maps[0].values())


def _validated_type(x: Any, attrs: dict[str, Any], opset: int = 1) -> str | None:
    """The type `opset validate` gives the node's output (no value_info declares it)."""
    from opset.validate import check_model
    from opset.validate.values import value_entry

    model, _ = one_node_model(OP, opset, [x], attrs, 1, domain=DOMAIN)
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], [str(d) for d in result.diagnostics]
    found: str | None = value_entry(result.facts["out0"])["type"]
    return found


@pytest.mark.parametrize(("attrs", "want"), [({"classlabels_strings": ["a", "b"]}, "seq(map(string,tensor(float)))"),
                                             ({"classlabels_int64s": [1, 2]}, "seq(map(int64,tensor(float)))")],
                         ids=["v1-strings", "v1-ints"])
def test_the_validator_types_z_by_the_labels(attrs: dict[str, Any], want: str) -> None:
    assert _validated_type(data.f32(3, 2), attrs) == want


@pytest.mark.parametrize("x", [data.f32(4, 2), data.f32(2)], ids=["v1-matrix", "v1-vector"])
def test_shape_formula_gives_one_map_per_row_of_onnxruntimes(x: np.ndarray) -> None:
    """A sequence's formula lists its elements' shapes; a map has none, so each is None."""
    attrs = {"classlabels_strings": ["a", "b"]}
    (mine,) = formula_shapes_raw(x, attrs)
    model, feeds = one_node_model(OP, 1, [x], attrs, 1, domain=DOMAIN)
    assert mine == [None] * len(run_onnxruntime(model, feeds)[0])


def formula_shapes_raw(x: np.ndarray, attrs: dict[str, Any]) -> list[Any]:
    result = inferred(version(DOMAIN, OP, 1), [x], attrs)
    assert not result.problems, result.problems
    return result.outputs
