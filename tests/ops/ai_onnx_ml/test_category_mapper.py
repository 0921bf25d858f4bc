"""CategoryMapper: the kernel against onnxruntime (both directions, repeated entries, defaults, any rank), the
shape formula against onnx, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    node_diagnostics,
    one_node_model,
    oracle_tests,
    rejection_tests,
    shape_case,
    shape_tests,
)

DOMAIN = "ai.onnx.ml"
OP = "CategoryMapper"
# "cat" and 2 both appear twice: the last pair wins in each direction
CATS = {"cats_strings": ["cat", "dog", "cat", "cow"], "cats_int64s": [1, 2, 3, 2]}
ANIMALS = np.array([["dog", "cat"], ["bird", "cow"]], dtype=object)


def case(x: np.ndarray, attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", id=id, domain=DOMAIN)


CASES = [
    case(ANIMALS, CATS, "strings_to_ints"),
    case(ANIMALS, {**CATS, "default_int64": 99}, "strings_default"),
    case(np.array([[1, 2, 3], [4, -1, 2]], np.int64), CATS, "ints_to_strings"),
    case(np.array([5, 1], np.int64), {**CATS, "default_string": "none"}, "ints_default"),
    case(np.array("cow", dtype=object), CATS, "scalar"),
    case(np.array([[["cat"]], [["x"]]], dtype=object), CATS, "rank3"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

SHAPES = [
    shape_case(OP, 1, [ANIMALS], CATS, domain=DOMAIN),
    shape_case(OP, 1, [np.array([1, 2, 3], np.int64)], CATS, domain=DOMAIN),
]

test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [
    (shape_case(OP, 1, [ANIMALS], {"cats_strings": ["a"]}, domain=DOMAIN), "categorymapper_c1"),
    (shape_case(OP, 1, [ANIMALS], {"cats_strings": ["a"], "cats_int64s": [1, 2]}, domain=DOMAIN),
     "categorymapper_c1"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def _validated_type(x: Any, attrs: dict[str, Any], opset: int = 1) -> str | None:
    """The type `opset validate` gives the node's output (no value_info declares it)."""
    from opset.validate import check_model
    from opset.validate.values import value_entry

    model, _ = one_node_model(OP, opset, [x], attrs, 1, domain=DOMAIN)
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], [str(d) for d in result.diagnostics]
    found: str | None = value_entry(result.facts["out0"])["type"]
    return found


@pytest.mark.parametrize(("x", "want"), [(ANIMALS, "int64"), (np.array([1], np.int64), "string")],
                         ids=["v1-strings", "v1-ints"])
def test_the_validator_types_y_the_other_way_from_x(x: np.ndarray, want: str) -> None:
    assert _validated_type(x, CATS) == want
