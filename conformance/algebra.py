"""The algebraic properties of docs/format.md, checked on a backend's answers.

Each check gets the case, the outputs the backend gave for it and `rerun(inputs) -> outputs`, which
runs the same node on the backend with other inputs. A violated property raises PropertyViolation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.compare import compare_values, shown_value, tolerance_for
from conformance.containers import shape_of
from conformance.strategies.case import Case
from conformance.strategies.dtypes import element_of
from opset.model import Property

Rerun = Callable[[list[np.ndarray | None]], list[np.ndarray]]


class PropertyViolation(Exception):
    pass


# what a property runs the backend on again, for a message when that second run fails
RERUNS = {"commutative": "f(b, a), the case's first two inputs swapped", "idempotent": "f(f(x)), its own output",
          "odd": "f(-x), the first input negated", "monotonic": "f(x + 0.5), the first input raised by 0.5"}


def check_property(prop: Property, case: Case, outputs: list[np.ndarray], rerun: Rerun) -> None:
    name = prop.name
    checks: dict[str, Callable[..., None]] = {
        "commutative": _commutative, "idempotent": _idempotent, "odd": _odd, "monotonic": _monotonic,
        "shape_preserving": _shape_preserving, "range": _range,
    }
    if name not in checks:
        raise PropertyViolation(f"unknown property '{name}' (the registry lint should have caught it)")
    checks[name](case, outputs, rerun, *prop.args)


def _same(case: Case, what: str, actual: Any, expected: Any) -> None:
    result = compare_values(actual, expected, lambda dtype: tolerance_for(case.version, element_of(dtype)))
    if not result.ok:
        raise PropertyViolation(f"{what}: {result.problem}")


def _commutative(case: Case, outputs: list[np.ndarray], rerun: Rerun) -> None:
    if len(case.inputs) < 2:
        return
    swapped = [case.inputs[1], case.inputs[0], *case.inputs[2:]]
    _same(case, "commutative: f(b, a) differs from f(a, b)", rerun(swapped)[0], outputs[0])


def _idempotent(case: Case, outputs: list[np.ndarray], rerun: Rerun) -> None:
    again = rerun([outputs[0], *case.inputs[1:]])
    _same(case, "idempotent: f(f(x)) differs from f(x)", again[0], outputs[0])


def _odd(case: Case, outputs: list[np.ndarray], rerun: Rerun) -> None:
    x = case.inputs[0]
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "fi":
        return
    negated = rerun([np.asarray(-x), *case.inputs[1:]])
    _same(case, "odd: f(-x) differs from -f(x)", negated[0], np.asarray(-outputs[0]))


def _monotonic(case: Case, outputs: list[np.ndarray], rerun: Rerun) -> None:
    x = case.inputs[0]
    if not isinstance(x, np.ndarray) or x.dtype.kind != "f":
        return
    bigger = np.asarray(x + np.asarray(0.5, dtype=x.dtype)).astype(x.dtype)
    y2 = rerun([bigger, *case.inputs[1:]])[0]
    drops = np.flatnonzero(y2.astype(np.float64) < outputs[0].astype(np.float64))
    if drops.size:
        i = int(drops[0])
        raise PropertyViolation(f"monotonic: f(x + 0.5) < f(x) at flat index {i}: "
                                f"{shown_value(y2.flat[i])} < {shown_value(outputs[0].flat[i])}")


def _shape_preserving(case: Case, outputs: list[Any], rerun: Rerun) -> None:
    x = case.inputs[0]
    if x is not None and shape_of(outputs[0]) != shape_of(x):
        raise PropertyViolation(f"shape_preserving: output shape {shape_of(outputs[0])} but input {shape_of(x)}")


def _range(case: Case, outputs: list[np.ndarray], rerun: Rerun, *bounds: Any) -> None:
    pair = list(bounds[0]) if len(bounds) == 1 and isinstance(bounds[0], list | tuple) else list(bounds)
    lo, hi = ([*pair, None, None])[:2]
    y = outputs[0].astype(np.float64)
    outside = np.zeros(y.shape, dtype=bool)
    if lo is not None:
        outside |= y < lo
    if hi is not None:
        outside |= y > hi
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise PropertyViolation(f"range: output {shown_value(y.flat[i])} at flat index {i} outside [{lo}, {hi}]")
