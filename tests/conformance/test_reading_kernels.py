"""Readings whose values the reference kernels compute (`kernel: true`, `@reading_kernel`): a backend counts as
following such a reading only where its outputs are that reading's values; a backend wrong in another way fails,
though the reading's `when` holds. Where several readings hold, every one is named."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from conformance.kernels.registry import all_reading_kernels, run_kernel
from conformance.registry import current_registry
from conformance.runner.readings import reading_followed_by_outputs
from opset.infer import resolve_attributes

INT4 = 22  # TensorProto.INT4


def test_every_computed_reading_has_its_kernel_and_every_kernel_its_reading() -> None:
    said = {(v.domain, v.name, r.id) for v in current_registry().all_versions() for r in v.readings if r.kernel}
    assert said == all_reading_kernels()
    assert ("ai.onnx", "Cast", "cast_r2") in said and ("ai.onnx", "Resize", "resize_r6") in said


def _cast_verdict(x: np.ndarray, answer: np.ndarray) -> tuple[str | None, list[str]]:
    version = current_registry().op("ai.onnx", "Cast").version(21)
    attributes = resolve_attributes(version, {"to": INT4}, [list(x.shape)])
    expected = run_kernel(version, [x], {"to": INT4})[0]

    def problems(values: list[Any]) -> list[str]:
        same = np.array_equal(np.asarray(values[0]).astype(np.int8), answer.astype(np.int8))
        return [] if same else [f"{answer.astype(np.int8).tolist()} vs {np.asarray(values[0]).astype(np.int8)}"]

    assert problems([expected]), "the answer must differ from the registry's own values"
    return reading_followed_by_outputs(version, [x], attributes, [answer], problems, 1)


@pytest.mark.parametrize(("rounding", "followed"), [
    (lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5), "cast_r2"),  # onnxruntime, OpenVINO
    (np.trunc, "cast_r3"),  # onnx.reference (ml_dtypes)
])
def test_a_cast_to_int4_follows_the_one_reading_whose_values_it_gives(rounding: Any, followed: str) -> None:
    x = np.array([2.5, -2.5, 2.7, -0.5, 1.0], np.float32)
    found, missed = _cast_verdict(x, rounding(x.astype(np.float64)).astype(ml_dtypes.int4))
    assert found is not None and found.startswith(f"{followed} (") and " or " not in found, found
    assert missed == []


def test_a_cast_that_follows_no_reading_fails_and_says_why_each_reading_does_not_fit() -> None:
    x = np.array([2.5, -2.5, 2.2, -0.5, 1.0], np.float32)
    found, missed = _cast_verdict(x, np.ceil(x).astype(ml_dtypes.int4))
    assert found is None
    assert [m.split(" (")[0] for m in missed] == ["not reading cast_r2", "not reading cast_r3"], missed


def test_a_reading_without_computed_values_is_followed_wherever_it_holds() -> None:
    version = current_registry().op("ai.onnx", "Softmax").version(11)
    x = np.zeros((2, 3), np.float32)
    attributes = resolve_attributes(version, {"axis": 0}, [[2, 3]])
    found, missed = reading_followed_by_outputs(version, [x], attributes, [x], lambda values: ["differs"], 1)
    assert found is not None and found.startswith("softmax_r1 (") and missed == []
