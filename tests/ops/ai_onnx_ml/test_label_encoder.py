"""LabelEncoder 1, 2 and 4: the kernels against onnxruntime and onnx.reference (where they read the text as we
do), the shape formula against onnx, rejected nodes, the readings (repeated keys, float keys, defaults)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from onnx import numpy_helper

from tests.helpers import (
    OracleCase,
    inferred,
    node_diagnostics,
    one_node_model,
    oracle_tests,
    rejection_tests,
    run,
    shape_case,
    shape_tests,
    version,
)

DOMAIN = "ai.onnx.ml"
OP = "LabelEncoder"
NAMES = np.array([["Amy", "Dori"], ["Sally", "Amy"]], dtype=object)
FLOATS = np.array([1.5, np.nan, -0.0, 0.0, 2.0], np.float32)


def tensor(values: Any) -> Any:
    array = np.asarray(values)
    return numpy_helper.from_array(array.astype(object) if array.dtype.kind == "U" else array)


def case(x: np.ndarray, attrs: dict[str, Any], since: tuple[int, ...], id: str, oracle: str = "ort") -> OracleCase:
    return OracleCase(OP, attrs, [x], since, oracle=oracle, id=id, domain=DOMAIN)


STR_INT = {"keys_strings": ["Amy", "Sally"], "values_int64s": [5, 6]}
CASES = [
    # version 1: strings to their (last) index and back
    case(NAMES, {"classes_strings": ["Amy", "Sally", "Amy"]}, (1,), "v1_strings"),
    case(np.array([0, 1, 2, 3, -1], np.int64), {"classes_strings": ["a", "b", "c"], "default_string": "?"}, (1,),
         "v1_ints"),
    # versions 2 and 4 with list attributes
    case(NAMES, STR_INT, (2, 4), "str_int"),
    case(NAMES, {**STR_INT, "default_int64": 42}, (2, 4), "str_int_default"),
    case(NAMES, {"keys_strings": ["Amy"], "values_strings": ["A"], "default_string": "-"}, (2, 4), "str_str"),
    case(NAMES, {"keys_strings": ["Amy", "Sally"], "values_floats": [0.5, -1.0]}, (2, 4), "str_float"),
    case(np.array([[3, 1], [7, 3]], np.int64), {"keys_int64s": [1, 3], "values_strings": ["x", "y"]}, (2, 4),
         "int_str"),
    case(np.array([3, 1, 7], np.int64), {"keys_int64s": [1, 3], "values_int64s": [10, 30]}, (2, 4), "int_int"),
    case(np.array([3, 1, 7], np.int64), {"keys_int64s": [1, 3], "values_floats": [0.5, 1.5],
                                         "default_float": 2.5}, (2, 4), "int_float"),
    case(np.array([1.5, 2.0, 3.0], np.float32), {"keys_floats": [1.5, 2.0], "values_int64s": [1, 2]}, (2, 4),
         "float_int"),
    case(np.array([1.5, 3.0], np.float32), {"keys_floats": [1.5], "values_strings": ["z"]}, (2, 4), "float_str"),
    case(np.array(1.5, np.float32), {"keys_floats": [1.5], "values_floats": [9.0]}, (2, 4), "scalar"),
    case(NAMES, STR_INT, (2, 4), "str_int_ref", oracle="ref"),
    # version 4: a NaN key matches any NaN, -0.0 matches 0.0
    case(FLOATS, {"keys_floats": [1.5, float("nan"), 0.0], "values_int64s": [1, 2, 3]}, (4,), "nan_key"),
    # version 4's tensor forms
    case(np.array([1.0, 2.0, 5.0]), {"keys_tensor": tensor([1.0, 2.0]), "values_tensor": tensor([7, 8])}, (4,),
         "double_int64_tensor"),
    case(np.array([1, 5], np.int64), {"keys_int64s": [1], "values_tensor": tensor([2.5]),
                                      "default_tensor": tensor([9.5])}, (4,), "default_tensor"),
    case(np.array([1, 5], np.int64), {"keys_int64s": [1], "values_strings": ["a"], "default_tensor": tensor(["d"])},
         (4,), "default_tensor_with_list_values"),
    case(np.array([1, 5], np.int64), {"keys_int64s": [1], "values_tensor": tensor([7]), "default_int64": 5}, (4,),
         "int64_tensor_takes_default_int64"),
    case(np.array([1, 5], np.int64), {"keys_int64s": [1], "values_tensor": tensor([7.0])}, (4,),
         "double_values_default"),
    case(NAMES, {"keys_tensor": tensor(["Amy", "Dori"]), "values_tensor": tensor(np.array([3, 4], np.int16))},
         (4,), "str_int16_tensor"),
    case(np.array([2, 9], np.int16), {"keys_tensor": tensor(np.array([2], np.int16)),
                                      "values_tensor": tensor(np.array([5], np.int32)),
                                      "default_tensor": tensor(np.array([-7], np.int32))}, (4,), "int16_int32_ref",
         oracle="ref"),
]

test_kernel_matches_oracle, test_every_kernel_range_is_exercised = oracle_tests(OP, CASES, domain=DOMAIN)

SHAPES = [shape_case(OP, opset, [NAMES], STR_INT, domain=DOMAIN) for opset in (2, 4)]
SHAPES += [shape_case(OP, 4, [np.zeros((2, 1, 3))], {"keys_tensor": tensor([1.0]), "values_tensor": tensor([2])},
                      domain=DOMAIN)]

test_shape_formula_matches_onnx = shape_tests(SHAPES)

REJECTED = [(shape_case(OP, 1, [NAMES], {}, domain=DOMAIN), "labelencoder_c1")]
for opset in (2, 4):
    REJECTED += [
        (shape_case(OP, opset, [NAMES], {"values_int64s": [1]}, domain=DOMAIN), "labelencoder_c2"),
        (shape_case(OP, opset, [NAMES], {**STR_INT, "keys_int64s": [1, 2]}, domain=DOMAIN), "labelencoder_c2"),
        (shape_case(OP, opset, [NAMES], {"keys_strings": ["a"]}, domain=DOMAIN), "labelencoder_c3"),
        (shape_case(OP, opset, [NAMES], {"keys_strings": ["a"], "values_int64s": [1, 2]}, domain=DOMAIN),
         "labelencoder_c4"),
    ]
REJECTED += [
    (shape_case(OP, 4, [NAMES], {"keys_tensor": tensor(["a", "b"]), "values_int64s": [1]}, domain=DOMAIN),
     "labelencoder_c4"),
    (shape_case(OP, 4, [NAMES], {**STR_INT, "default_tensor": tensor([1, 2])}, domain=DOMAIN), "labelencoder_c5"),
]

test_invalid_node_reports_the_check = rejection_tests(REJECTED)


def test_version_2_compares_float_keys_bit_by_bit() -> None:
    """A NaN key matches a NaN of the same bits and -0.0 is not 0.0 (both runtimes compare by value)."""
    (y,) = run(DOMAIN, OP, 2, [FLOATS], keys_floats=[1.5, float("nan"), 0.0], values_int64s=[1, 2, 3])
    assert y.tolist() == [1, 2, -1, 3, -1]


def test_repeated_keys_take_the_last_value() -> None:
    for since in (2, 4):
        (y,) = run(DOMAIN, OP, since, [np.array([1, 2], np.int64)], keys_int64s=[1, 2, 1], values_int64s=[7, 8, 9])
        assert y.tolist() == [9, 8]


@pytest.mark.parametrize(("since", "attrs", "reading"), [
    pytest.param(2, {"keys_int64s": [1, 2, 1], "values_int64s": [7, 8, 9]}, "labelencoder_r1", id="v2-repeat"),
    pytest.param(4, {"keys_strings": ["a", "a"], "values_int64s": [7, 8]}, "labelencoder_r1", id="v4-repeat"),
    pytest.param(2, {"keys_floats": [0.0], "values_int64s": [7]}, "labelencoder_r2", id="v2-zero_key"),
    pytest.param(4, {"keys_floats": [float("nan")], "values_int64s": [7]}, "labelencoder_r3", id="v4-nan_key"),
    pytest.param(4, {"keys_int64s": [1], "values_int64s": [7], "default_tensor": np.array([3])}, "labelencoder_r4",
                 id="v4-default_tensor"),
])
def test_each_reading_holds_where_it_says(since: int, attrs: dict[str, Any], reading: str) -> None:
    v = version(DOMAIN, OP, since)
    assert [r.reading.id for r in inferred(v, [[3]], attrs).readings] == [reading]


def test_no_reading_holds_for_a_plain_mapping() -> None:
    for since in (2, 4):
        assert inferred(version(DOMAIN, OP, since), [[3]], {"keys_floats": [1.5], "values_int64s": [7]}).readings == []


def _validated_type(x: Any, attrs: dict[str, Any], opset: int = 1) -> str | None:
    """The type `opset validate` gives the node's output (no value_info declares it)."""
    from opset.validate import check_model
    from opset.validate.values import value_entry

    model, _ = one_node_model(OP, opset, [x], attrs, 1, domain=DOMAIN)
    result = check_model(model)
    assert not [d for d in node_diagnostics(result.diagnostics) if d.is_error], [str(d) for d in result.diagnostics]
    found: str | None = value_entry(result.facts["out0"])["type"]
    return found


@pytest.mark.parametrize(("opset", "x", "attrs", "want"), [
    pytest.param(1, NAMES, {"classes_strings": ["Amy"]}, "int64", id="v1-strings_to_ints"),
    pytest.param(1, np.array([0], np.int64), {"classes_strings": ["Amy"]}, "string", id="v1-ints_to_strings"),
    pytest.param(2, NAMES, {"keys_strings": ["Amy"], "values_floats": [1.0]}, "float", id="v2-values_floats"),
    pytest.param(4, NAMES, {"keys_strings": ["Amy"], "values_tensor": tensor(np.array([3], np.int16))}, "int16",
                 id="v4-values_tensor"),
])
def test_the_validator_types_y_by_the_values(opset: int, x: np.ndarray, attrs: dict[str, Any], want: str) -> None:
    assert _validated_type(x, attrs, opset) == want
