"""The readings recorded for the disputed cases of issue 24: each `when` holds where the sources differ and stays
narrow (it does not hold next door, where the readings agree), so a backend following it is ambiguous only there."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from conformance.registry import current_registry
from conformance.runner.checks import followed_reading
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
