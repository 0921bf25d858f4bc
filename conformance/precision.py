"""The bounds a version's precision policy (`precision` in the YAML; docs/format.md, "Precision") gives a case.

The tolerance (`conformance.compare`) is the base: what one rounding to the element type, or an implementation
computing in the element type's own width, may change. Where the policy lets an implementation compute part of the
op in a narrower type than the reference does, the rounding of that narrower type is added to it:

- `narrow: element`: a float16, bfloat16 (or float8/6/4) output may come from intermediates computed in that type
  itself, where the reference computes them in float32 and rounds once;
- `stash: <attribute>`: stage one may be computed in the type the attribute names, narrower than the element type
  (LayerNormalization[double] with stash_type=1: float32).

How much a narrower type changes the result is measured, not guessed: the reference kernel runs on the case's
values at the two ends (every float input and the stash as float32; every float input and the stash as float64),
and the difference `D` of the two evaluations is the rounding error of a float32 computation of this op on these
values. An evaluation in a type with unit roundoff `u` has an error of `D * u / u(float)`, to first order (a
rounding error is proportional to the unit roundoff: the same operations, the same conditioning). A float32
evaluation of narrow values can be exact where the narrow type rounds every partial result (a sum of bfloat16
squares fits in float32's 24 bits), so one rounding of the narrow type at the output's largest magnitude `M` is
added. The bound adds twice the sum to `atol`, for the whole tensor:

    |actual - expected| <= atol + rtol * |expected| + 2 * (D_max * u(C) / u(float) + u(C) * M)

with `C` the narrowest type the policy allows for the case and `D_max` the largest difference over the output.
The factor 2 and the maximum over the tensor cover another order of the same operations (a backend that folds
BatchNormalization into one multiply-add, sums a row in another order): its rounding errors have the same size,
not the same signs, and an element whose own error happened to be 0 in our evaluation is no exception. Accepting
an output within the tolerance of any one evaluation instead (the other option) fails every implementation whose
order differs from ours, since a float16 computation's own error is many times the float16 tolerance.

An implementation that computes in a narrower type than the policy allows still fails: where the policy allows
nothing narrower than the reference computes in, no slack is added, so a double BatchNormalization computed in
float32 fails by about 1e-7 against double's 1e-12.

Integer outputs stay exact; `accumulate: [element, int64]` accepts an output equal to either evaluation (the
integer inputs as they are, wrapping in the element type; or as int64, cast once to the element type at the end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from conformance.element_types import FLOATS, element_of, is_ml_dtype, numpy_dtype
from opset.model import OpVersion, Precision, Tolerance

DEFAULT_PRECISION = Precision()
NARROW_FLOATS = FLOATS - {"float", "double"}  # the floats narrower than float32
# TensorProto codes of the float types a stash_type may name
_STASH_TYPES = {1: "float", 10: "float16", 11: "double", 16: "bfloat16"}
FLOAT_CODE, DOUBLE_CODE = 1, 11

Evaluate = Callable[[list[Any], dict[str, Any]], Sequence[Any]]  # the reference on (inputs, attributes)


def precision_of(version: OpVersion) -> Precision:
    return version.precision or DEFAULT_PRECISION


def unit_roundoff(element: str) -> float:
    """Half the distance from 1 to the next value of a float element type (2**-11 for float16, 2**-24 for float)."""
    dtype = numpy_dtype(element)
    info = ml_dtypes.finfo(dtype) if is_ml_dtype(dtype) else np.finfo(dtype)  # type: ignore[no-untyped-call]
    return float(info.eps) / 2


def narrowest_allowed(version: OpVersion, element: str, attributes: dict[str, Any]) -> str | None:
    """The narrowest type the policy lets a case of output element `element` be computed in, where it is narrower
    than what the reference computes such a case in (float32 for the narrow floats, the element type otherwise);
    None when there is none."""
    policy = precision_of(version)
    if element not in FLOATS:
        return None
    found: list[str] = []
    if policy.narrow == "element" and element in NARROW_FLOATS:
        found.append(element)
    if policy.stash is not None:
        stash = _STASH_TYPES.get(int(attributes.get(policy.stash) or 0))
        reference_width = unit_roundoff("float") if element in NARROW_FLOATS else unit_roundoff(element)
        if stash is not None and unit_roundoff(stash) > reference_width:
            found.append(stash)
    return max(found, key=unit_roundoff) if found else None


@dataclass(frozen=True)
class Bound:
    """The extra absolute slack (one per output position, 0.0 where none) and the type that gives it."""

    slack: tuple[float, ...]
    narrowest: str

    def describe(self, position: int) -> str:
        return (f"+ {self.slack[position]:.3g} that computing in {self.narrowest} allows (precision policy: twice the "
                f"measured float32 rounding scaled to {self.narrowest}, and one {self.narrowest} rounding)")


def precision_bound(version: OpVersion, element: str, inputs: Sequence[Any], attributes: dict[str, Any],
                    evaluate: Evaluate) -> Bound | None:
    """The slack the policy adds for a case whose compared output has element type `element` (see the module doc);
    None where the policy allows nothing narrower than the reference computes in."""
    narrowest = narrowest_allowed(version, element, attributes)
    if narrowest is None:
        return None
    policy = precision_of(version)
    low_inputs = [_as_float(x, np.float32) for x in inputs]
    high_inputs = [_as_float(x, np.float64) for x in inputs]
    low_attributes, high_attributes = dict(attributes), dict(attributes)
    if policy.stash is not None and attributes.get(policy.stash) is not None:
        low_attributes[policy.stash] = FLOAT_CODE
        high_attributes[policy.stash] = DOUBLE_CODE
    low = evaluate(low_inputs, low_attributes)
    high = evaluate(high_inputs, high_attributes)
    scale = unit_roundoff(narrowest) / unit_roundoff("float")
    # the measured rounding, scaled to the narrow type, and one rounding of the narrow type at the output's magnitude
    # (a float32 evaluation of narrow values can be exact, a sum of bfloat16 squares fits in 24 bits, where the
    # narrow type itself rounds every partial sum)
    magnitude = _magnitude(evaluate, high_inputs, high_attributes, len(high))
    slack = [scale * _largest_difference(a, b) + unit_roundoff(narrowest) * max(_largest_magnitude(b), m)
             for a, b, m in zip(low, high, magnitude, strict=False)]
    return Bound(tuple(2.0 * s for s in slack), narrowest)


def widened(tolerance: Tolerance, slack: float) -> Tolerance:
    return Tolerance(rtol=tolerance.rtol, atol=tolerance.atol + slack)


def integer_alternative(version: OpVersion, element: str, inputs: Sequence[Any], attributes: dict[str, Any],
                        evaluate: Evaluate) -> list[Any] | None:
    """The outputs of the `int64` accumulation the policy allows besides the element type's (integer inputs as
    int64, each output cast once to its element type); None where the policy allows no other."""
    policy = precision_of(version)
    if "int64" not in policy.accumulate or element in FLOATS or element in ("int64", "uint64"):
        return None
    wide = [x.astype(np.int64) if isinstance(x, np.ndarray) and x.dtype.kind in "iu" else x for x in inputs]
    return list(evaluate(wide, dict(attributes)))


def _as_float(x: Any, dtype: type[np.floating[Any]]) -> Any:
    """A float tensor (numpy's or an ml_dtypes one) as `dtype`; anything else as it is."""
    if not isinstance(x, np.ndarray):
        return x
    element = element_of(x.dtype)
    if element in FLOATS:
        return x.astype(dtype)
    return x


def _magnitude(evaluate: Evaluate, inputs: list[Any], attributes: dict[str, Any], count: int) -> list[float]:
    """The largest magnitude of each output of the op on the float inputs' absolute values: for a sum or a product
    of sums (a reduction, a matrix product, a weighted loss) the largest sum of absolute terms, which bounds the
    partial results a narrow type rounds where the output itself cancels to a small value. An op that refuses
    those values (one that reads a sign) gives 0.0, and the output's own magnitude stands alone."""
    absolute = [np.abs(x) if isinstance(x, np.ndarray) and element_of(x.dtype) in FLOATS else x for x in inputs]
    try:
        outputs = evaluate(absolute, attributes)
    except (ValueError, ArithmeticError, TypeError, IndexError):
        return [0.0] * count
    return [_largest_magnitude(y) for y in outputs] + [0.0] * (count - len(outputs))


def _largest_magnitude(a: Any) -> float:
    """The largest finite |a| of a float array (0.0 for anything else)."""
    if not isinstance(a, np.ndarray) or element_of(a.dtype) not in FLOATS:
        return 0.0
    x = a.astype(np.float64)
    return float(np.abs(x[np.isfinite(x)]).max(initial=0.0))


def _largest_difference(a: Any, b: Any) -> float:
    """The largest |a - b| over the elements finite in both (0.0 for anything but two float arrays of one shape)."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape:
        return 0.0
    if element_of(a.dtype) not in FLOATS or element_of(b.dtype) not in FLOATS:
        return 0.0
    x, y = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(x) & np.isfinite(y)
    return float(np.abs(x[finite] - y[finite]).max(initial=0.0))
