"""The readings recorded for the disputed cases of issue 24: each `when` holds where the sources differ and stays
narrow (it does not hold next door, where the readings agree), so a backend following it is ambiguous only there."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from conformance.registry import current_registry
from conformance.runner.readings import followed_reading
from opset.infer import resolve_attributes


def reading(op: str, since: int, inputs: list[Any], given: dict[str, Any], outputs: list[list[int]]) -> str | None:
    version = current_registry().op("ai.onnx", op).version(since)
    attributes = resolve_attributes(version, given, [list(np.shape(x)) if x is not None else None for x in inputs])
    found = followed_reading(version, inputs, attributes, outputs)
    return found.split(" ")[0] if found else None


@pytest.mark.parametrize("since", [1, 11])
def test_softmax_along_the_axis_alone_is_a_reading_as_for_log_softmax(since: int) -> None:
    x = np.zeros((2, 3), np.float32)
    assert reading("Softmax", since, [x], {"axis": 0}, [[2, 3]]) == "softmax_r1"
    assert reading("LogSoftmax", since, [x], {"axis": 0}, [[2, 3]]) == "logsoftmax_r1"
    assert reading("Softmax", since, [x], {"axis": 1}, [[2, 3]]) is None  # 2-D at the last axis: they agree
    assert reading("Softmax", 13, [x], {"axis": 0}, [[2, 3]]) is None


def test_erf_of_integers_rounded_to_nearest_is_a_reading_where_it_differs() -> None:
    assert reading("Erf", 9, [np.array([0, 2], np.int32)], {}, [[2]]) == "erf_r1"
    assert reading("Erf", 9, [np.array([0, 5, -7], np.int32)], {}, [[3]]) is None  # 0 and sign(x) both ways
    assert reading("Erf", 9, [np.array([0.5, 2.0], np.float32)], {}, [[2]]) is None


def test_reduce_sum_with_an_empty_axes_list_reducing_nothing_is_a_reading() -> None:
    x = np.ones((2, 3), np.float32)
    assert reading("ReduceSum", 11, [x], {"axes": []}, [[2, 3]]) == "reducesum_r1"
    assert reading("ReduceSum", 11, [x], {"axes": []}, [[1, 1]]) is None  # the registry's own shape
    assert reading("ReduceSum", 11, [x], {}, [[2, 3]]) is None


def test_resize_nearest_with_exclude_outside_is_a_reading() -> None:
    x, scales = np.ones((1, 1, 2, 2), np.float32), np.array([1, 1, 2, 2], np.float32)
    given = {"mode": "nearest", "exclude_outside": 1}
    assert reading("Resize", 19, [x, None, scales], given, [[1, 1, 4, 4]]) == "resize_r5"
    assert reading("Resize", 19, [x, None, scales], {**given, "mode": "cubic"}, [[1, 1, 4, 4]]) is None
    assert reading("Resize", 19, [x, None, scales], {"mode": "nearest"}, [[1, 1, 4, 4]]) is None


def test_padding_float8e8m0_with_the_default_constant_is_a_reading() -> None:
    x, pads = np.array([1, 2, 4], ml_dtypes.float8_e8m0fnu), np.array([1, 1], np.int64)
    assert reading("Pad", 25, [x, pads], {}, [[5]]) == "pad_r1"
    assert reading("Pad", 25, [x, pads, np.array(2, ml_dtypes.float8_e8m0fnu)], {}, [[5]]) is None
    assert reading("Pad", 25, [x, pads], {"mode": "edge"}, [[5]]) is None
    assert reading("Pad", 25, [x.astype(np.float32), pads], {}, [[5]]) is None


def test_a_float_cast_to_int4_or_int2_rounds_half_to_even_as_onnx_pages_say() -> None:
    from conformance.kernels.ai_onnx.cast import cast_to

    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 2.7, -2.7, 1.2], np.float32)
    assert cast_to("Cast", x, "int4").astype(np.int8).tolist() == [0, 2, 2, 0, -2, 3, -3, 1]
    assert cast_to("Cast", x[:3], "uint4").astype(np.int8).tolist() == [0, 2, 2]
    assert cast_to("Cast", np.array([0.5, 1.5, -1.7], np.float64), "int2").astype(np.int8).tolist() == [0, -2, -2]
    assert cast_to("Cast", np.array([1.5], np.float32), "int8").tolist() == [1]  # numpy's integers still truncate


@pytest.mark.parametrize(("since", "to"), [(21, 22), (21, 21), (24, 22), (25, 26), (25, 25)])
def test_cast_to_int4_rounding_ties_away_or_truncating_are_readings(since: int, to: int) -> None:
    given = {"to": to}
    assert reading("Cast", since, [np.array([2.5, 1.0], np.float32)], given, [[2]]) == "cast_r2"  # a tie
    assert reading("Cast", since, [np.array([2.7, 1.0], np.float32)], given, [[2]]) == "cast_r3"  # truncating
    assert reading("Cast", since, [np.array([2.25, -1.0], np.float32)], given, [[2]]) is None  # all agree
    assert reading("Cast", since, [np.array([2, 1], np.int32)], given, [[2]]) is None
    assert reading("Cast", since, [np.array([2.5], np.float32)], {"to": 3}, [[1]]) is None  # int8 truncates


def test_integer_and_bool_resize_results_taken_as_a_c_cast_are_a_reading() -> None:
    x, scales = np.ones((1, 1, 2, 2), np.int32), np.array([1, 1, 2, 2], np.float32)
    for since in (10, 11, 13, 18, 19):
        given = {"mode": "linear"}
        inputs = [x, scales] if since == 10 else [x, None, scales]
        assert reading("Resize", since, inputs, given, [[1, 1, 4, 4]]) == "resize_r6"
        assert reading("Resize", since, [x.astype(bool), *inputs[1:]], given, [[1, 1, 4, 4]]) == "resize_r6"
        assert reading("Resize", since, [x.astype(np.float32), *inputs[1:]], given, [[1, 1, 4, 4]]) is None
        assert reading("Resize", since, inputs, {"mode": "nearest"}, [[1, 1, 4, 4]]) is None  # nearest picks values


def test_a_reading_sees_the_values_of_ml_dtypes_inputs() -> None:
    x = np.array([2.5, 1.0], ml_dtypes.bfloat16)
    assert reading("Cast", 21, [x], {"to": 22}, [[2]]) == "cast_r2"
    assert reading("Cast", 21, [np.array([2.25], ml_dtypes.float8_e4m3fn)], {"to": 22}, [[1]]) is None
