"""DictVectorizer: the kernel against onnxruntime (float maps, string and int64 keys) and onnx.reference (its
values; it writes the row flat), the shape formula against onnxruntime, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import (
    OracleCase,
    formula_shapes,
    node_diagnostics,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    run_onnx_reference,
    run_onnxruntime,
    shape_case,
    version,
)

DOMAIN = "ai.onnx.ml"
OP = "DictVectorizer"
WORDS = {"string_vocabulary": ["a", "c", "b", "z", "c"]}  # "c" twice: both positions get its value
NUMBERS = {"int64_vocabulary": [3, 1, 2]}


def case(x: dict[Any, Any], attrs: dict[str, Any], id: str) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", id=id, domain=DOMAIN)  # type: ignore[list-item]


CASES = [
    case({"a": 4.0, "c": 8.5}, WORDS, "string_keys"),
    case({"a": 4.0, "q": 8.5}, WORDS, "unknown_key_dropped"),
    case({3: -1.5, 2: 0.25}, NUMBERS, "int64_keys"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("x", "attrs"), [
    pytest.param({"b": np.float64(2.5), "a": np.float64(-1.0)}, WORDS, id="double_values"),
    pytest.param({"z": np.int64(7)}, WORDS, id="int64_values"),
    pytest.param({2: "two", 3: "three"}, NUMBERS, id="string_values"),
])
def test_kernel_matches_onnx_reference_row(x: dict[Any, Any], attrs: dict[str, Any]) -> None:
    """onnx.reference writes the row flat ([C], where the text and onnxruntime give [1, C]) and types it by the
    values it sees; its values are ours."""
    (ours,) = run(DOMAIN, OP, 1, [x], **attrs)  # type: ignore[list-item]
    model, feeds = one_node_model(OP, 1, [x], attrs, 1, domain=DOMAIN)
    (theirs,) = run_onnx_reference(model, feeds)
    assert ours.shape == (1, theirs.size)
    if theirs.dtype.kind in "UO":  # the oracle helpers hand strings over as object arrays
        theirs = np.where(theirs == "0", "", theirs).astype(object)  # its absent strings are "0"; ours ""
    np.testing.assert_array_equal(ours[0], theirs)
    assert ours.dtype == (object if theirs.dtype == object else theirs.dtype)


@pytest.mark.parametrize(("x", "attrs"), [
    pytest.param({"a": 1.0}, WORDS, id="v1-words"),
    pytest.param({1: 1.0}, NUMBERS, id="v1-numbers"),
])
def test_shape_formula_matches_onnxruntime(x: dict[Any, Any], attrs: dict[str, Any]) -> None:
    """The formula reads the vocabulary only (a map has no shape to read)."""
    (mine,) = formula_shapes(version(DOMAIN, OP, 1), [None], attrs)
    model, feeds = one_node_model(OP, 1, [x], attrs, 1, domain=DOMAIN)
    assert mine == list(run_onnxruntime(model, feeds)[0].shape)


REJECTED = [
    (shape_case(OP, 1, [None], {}, domain=DOMAIN), "dictvectorizer_c1"),
    (shape_case(OP, 1, [None], {**WORDS, **NUMBERS}, domain=DOMAIN), "dictvectorizer_c1"),
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


@pytest.mark.parametrize(("x", "want"), [({"a": 1.0}, "float"), ({"a": np.int64(1)}, "int64")],
                         ids=["v1-float_values", "v1-int64_values"])
def test_the_validator_types_y_by_the_map_values(x: dict[Any, Any], want: str) -> None:
    assert _validated_type(x, WORDS) == want
