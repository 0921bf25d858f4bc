"""CastMap: the kernel against onnxruntime (float maps: every cast, DENSE and SPARSE), string maps (which
onnxruntime's Python binding cannot feed) against the casts onnxruntime's C++ kernel makes, rejected nodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.helpers import OracleCase, node_diagnostics, one_node_model, oracle_tests, rejection_tests, run, shape_case

DOMAIN = "ai.onnx.ml"
OP = "CastMap"
FLOATS = {3: 1.5, 1: -2.75, 0: 3.0}


def case(attrs: dict[str, Any], id: str, x: dict[int, Any] = FLOATS) -> OracleCase:
    return OracleCase(OP, attrs, [x], (1,), oracle="ort", id=id, domain=DOMAIN)  # type: ignore[list-item]


CASES = [
    case({}, "dense_float"),
    case({"cast_to": "TO_INT64"}, "dense_int64_truncates"),
    case({"cast_to": "TO_STRING"}, "dense_string"),
    case({"map_form": "SPARSE", "max_map": 6}, "sparse_float"),
    case({"cast_to": "TO_INT64", "map_form": "SPARSE", "max_map": 4}, "sparse_int64"),
    case({"cast_to": "TO_STRING", "map_form": "SPARSE", "max_map": 5}, "sparse_string_pads"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)


@pytest.mark.parametrize(("attrs", "want"), [
    pytest.param({"cast_to": "TO_FLOAT"}, [-2.5, 300.0, 7.0], id="to_float"),
    pytest.param({"cast_to": "TO_INT64"}, [-2, 3, 7], id="to_int64"),
    pytest.param({"cast_to": "TO_STRING", "map_form": "SPARSE", "max_map": 3}, ["0.f", "-2.5x", "0.f"],
                 id="sparse_string"),
])
def test_string_maps_cast_as_strtof_and_strtoll_read(attrs: dict[str, Any], want: list[Any]) -> None:
    """std::stof / std::stoll read the number a string starts with ("3e2" is 300.0 but 3 as an integer)."""
    x = {1: "-2.5x", 4: "3e2", 9: " 7"} if attrs.get("map_form") != "SPARSE" else {1: "-2.5x"}
    (y,) = run(DOMAIN, OP, 1, [x], **attrs)  # type: ignore[list-item]
    assert y.shape == (1, len(want)) and y.reshape(-1).tolist() == want


def test_an_empty_map_is_all_padding() -> None:
    (y,) = run(DOMAIN, OP, 1, [{}], map_form="SPARSE", max_map=3, cast_to="TO_INT64")  # type: ignore[list-item]
    assert y.dtype == np.int64 and y.tolist() == [[0, 0, 0]]
    (y,) = run(DOMAIN, OP, 1, [{}])  # type: ignore[list-item]
    assert y.dtype == np.float32 and y.shape == (1, 0)


def test_sparse_keys_outside_max_map_are_rejected() -> None:
    with pytest.raises(ValueError, match="SPARSE keys"):
        run(DOMAIN, OP, 1, [{5: 1.0}], map_form="SPARSE", max_map=5)  # type: ignore[list-item]


REJECTED = [
    (shape_case(OP, 1, [None], {"cast_to": "TO_DOUBLE"}, domain=DOMAIN), "attr_allowed"),
    (shape_case(OP, 1, [None], {"map_form": "SPARSE", "max_map": -1}, domain=DOMAIN), "attr_range"),
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


@pytest.mark.parametrize(("cast_to", "want"), [("TO_FLOAT", "float"), ("TO_INT64", "int64"), ("TO_STRING", "string")])
def test_the_validator_types_y_by_cast_to(cast_to: str, want: str) -> None:
    assert _validated_type(FLOATS, {"cast_to": cast_to}) == want
