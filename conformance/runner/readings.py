"""Which other reading of an op (the registry's `readings`, docs/format.md) a backend's outputs follow.

A reading holds for a case where its `when` holds for the case's inputs (their values known) and the outputs have
the shapes it states, if it states any. A reading the reference kernels compute (`kernel: true`) is followed only
where the outputs are its values, checked as the registry's own values are; a reading without computed values is
followed wherever it holds. Every reading that holds is named: none is picked for being listed first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from conformance.containers import describe, shape_of, value_type
from conformance.element_types import compute_dtype
from conformance.kernels.registry import ValueRange, run_reading
from opset.model import OpVersion, Reading

_READING_VALUES = 4096  # inputs up to this size give their values to a reading's `when`


def label(reading: Reading) -> str:
    return f"{reading.id} ({', '.join(reading.followed_by)})"


def holding_readings(version: OpVersion, inputs: Sequence[Any], attributes: Mapping[str, Any],
                     output_shapes: Sequence[Any]) -> list[Reading]:
    """The readings of `version` whose `when` holds for these inputs (all their values known) and whose output
    shapes, where they state any, are `output_shapes`."""
    if not version.readings:
        return []
    from opset.infer import infer_shapes

    shapes = [shape_of(x) for x in inputs]
    wide = [x.astype(compute_dtype(x.dtype)) if isinstance(x, np.ndarray) and x.dtype.kind == "V" else x
            for x in inputs]  # ml_dtypes values (bfloat16, float8, int4 ...) in the numpy type that holds them
    values = {p.name: np.asarray(x).reshape(-1).tolist() for p, x in zip(version.inputs, wide, strict=False)
              if isinstance(x, np.ndarray) and x.size <= _READING_VALUES and x.dtype.kind in "biufO"}  # O: strings
    types = [t if t is not None and "?" not in t else None for t in map(value_type, inputs)]  # dtype(X), type_of(X)
    result = infer_shapes(version, shapes, attributes, values, all_values_known=True, input_types=types)
    found = []
    for holding in result.readings:
        given = [(i, shape) for i, shape in enumerate(holding.outputs) if shape is not None and i < len(output_shapes)]
        if all(list(output_shapes[i]) == shape for i, shape in given):
            found.append(holding.reading)
    return found


def followed_reading(version: OpVersion, inputs: Sequence[Any], attributes: Mapping[str, Any],
                     output_shapes: Sequence[Any]) -> str | None:
    """`id (followed_by)` of every reading that holds here, joined by " or "; None when none does. Values are not
    looked at (the onnx node suite's expected outputs, a model's declared shapes)."""
    found = holding_readings(version, inputs, attributes, output_shapes)
    return " or ".join(map(label, found)) or None


def reading_followed_by_outputs(version: OpVersion, inputs: Sequence[Any], attributes: Mapping[str, Any],
                                outputs: list[Any], problems_against: Callable[[list[Any]], list[str]],
                                num_outputs: int) -> tuple[str | None, list[str]]:
    """The reading(s) `outputs` follow (None: none), and why each computed reading that holds is not followed.

    `attributes` are resolved (as kernels get them); `problems_against(expected)` checks `outputs` against another
    set of expected values as the registry's own are checked."""
    found = holding_readings(version, inputs, attributes, [shape_of(y) for y in outputs])
    missed: list[str] = []
    unknown = []
    for reading in found:
        if not reading.kernel:
            unknown.append(reading)
            continue
        try:
            expected = list(run_reading(version, reading.id, inputs, attributes, num_outputs))[:num_outputs]
        except Exception as e:  # a reading kernel refusing the case is reported, never taken as followed
            missed.append(f"reading {reading.id}'s kernel fails here ({type(e).__name__}: {e})")
            continue
        problems = _range_problems(outputs, expected) or problems_against(_within(outputs, expected))
        if not problems:
            return label(reading), []
        missed.append(f"not reading {label(reading)} either: {problems[0]}")
    if unknown:
        return " or ".join(map(label, unknown)), []
    return None, missed


def _range_problems(outputs: list[Any], expected: list[Any]) -> list[str]:
    """What is outside the reading's `ValueRange` outputs (their shapes and types must be the range's too)."""
    problems = []
    for i, (y, want) in enumerate(zip(outputs, expected, strict=False)):
        if not isinstance(want, ValueRange):
            continue
        if not isinstance(y, np.ndarray) or y.shape != want.low.shape or y.dtype != want.low.dtype:
            problems.append(f"output {i} is {describe(y)}, the reading's is {describe(want.low)}")
            continue
        outside = (y < want.low) | (y > want.high)
        if outside.any():
            at = int(np.flatnonzero(outside)[0])
            problems.append(f"output {i}: {int(outside.sum())} of {y.size} values outside the reading's range; first "
                            f"at flat index {at}: {y.flat[at]} not in [{want.low.flat[at]}, {want.high.flat[at]}]")
    return problems


def _within(outputs: list[Any], expected: list[Any]) -> list[Any]:
    """`expected` with each range (its outputs already checked) taken as the backend's own output."""
    return [y if isinstance(want, ValueRange) else want for y, want in zip(outputs, expected, strict=False)]
