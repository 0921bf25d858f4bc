"""Values a conversion to another element type defines (the `converts_to` domain key, docs/format.md "Domains"):
Cast's and CastLike's input.

Each conversion rule shows: quarter steps for truncation toward zero, the whole range of an integer type for
wrap-around (in half the draws), no value whose conversion ONNX leaves undefined (a float outside the target
integer's range, a non-positive float to float8e8m0); strings that read as numbers of the target, and numbers whose
text shows the format (integral values, many digits, magnitudes that switch to an exponent, infinities and NaN).
"""

from __future__ import annotations

import numpy as np

from conformance.element_types import COMPUTE_AS, FLOATS, finite_range, integer_range, numpy_dtype
from conformance.strategies.attributes import DrawFn
from conformance.strategies.memo import BOOLEANS
from conformance.strategies.strings import numeric_literals
from conformance.strategies.values import SEEDS, fill_array
from opset.formula import FormulaError, Undecided
from opset.formula.element_types import element_name


def whole_range(seed: int, element: str, shape: list[int]) -> np.ndarray:
    """Values spread over the whole range of an integer (or bool) element type."""
    dtype = numpy_dtype(element)
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return np.asarray(rng.integers(0, 2, size=shape).astype(bool))
    low, high = integer_range(element)
    wide = COMPUTE_AS.get(element, dtype)
    return np.asarray(rng.integers(low, high, size=shape, dtype=wide, endpoint=True).astype(dtype))


def conversion_values(draw: DrawFn, element: str, target: str, shape: list[int]) -> np.ndarray:
    """Values of `element` whose every one converts to `target` by a rule ONNX defines (`converts_to`)."""
    seed = draw(SEEDS)
    if element == "string" or target == "string":
        return string_conversion_input(draw, seed, element, target, shape)
    if element not in FLOATS:
        # integers (and bool): wrap-around, infinity in float16 and nonzero-is-true only show over the whole range
        return whole_range(seed, element, shape) if draw(BOOLEANS) else fill_array(seed, element, shape)
    if target == "float8e8m0":  # zero and negative values convert to unspecified values
        return fill_array(seed, element, shape, min_value=0.25)
    if target in FLOATS or target == "bool":
        return fill_array(seed, element, shape)
    low, high = finite_range(target)  # a float beyond the integer target's range converts to an undefined value
    return fill_array(seed, element, shape, min_value=max(low, -4.0), max_value=min(high, 4.0))


def target_element(value: object) -> str:
    """The element type a `converts_to` formula names, as the formulas' element-type functions read one (a DataType
    number, an element or tensor type), and a DataType name in any case (Cast 1's `to`: "FLOAT"); ValueError for
    anything else."""
    try:
        return element_name(value.lower() if isinstance(value, str) else value, "converts_to")
    except (FormulaError, Undecided) as e:
        raise ValueError(f"{value!r} names no element type") from e


def string_conversion_input(draw: DrawFn, seed: int, element: str, target: str, shape: list[int]) -> np.ndarray:
    """Strings that read as `target` numbers (string to number), or numbers whose text shows the format: integral
    values, many digits, magnitudes that switch to an exponent, infinities and NaN (number to string)."""
    if element == "string":
        if target == "string":
            return fill_array(seed, element, shape)
        if target in FLOATS:
            # the narrow floats: no NaN or infinity (float4 and float6 hold none), float8e8m0 positive only
            wide = target in ("float16", "float", "double")
            return numeric_literals(seed, shape, target, specials=wide, positive=target == "float8e8m0")
        low, high = integer_range(target)
        return numeric_literals(seed, shape, target, max(low, -300), min(high, 300))
    if element not in ("float16", "float", "double"):
        if element in FLOATS:
            return fill_array(seed, element, shape)
        return fill_array(seed, element, shape) if draw(BOOLEANS) else whole_range(seed, element, shape)
    if draw(BOOLEANS):
        return fill_array(seed, element, shape)
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape)) if shape else 1
    values = rng.standard_normal(size) * 10.0 ** rng.integers(-7, 11, size=size)
    special = rng.integers(0, 12, size=size)
    values = np.where(special == 0, np.round(values), values)  # integral: no decimal point in the text
    values = np.where(special == 1, np.array([np.inf, -np.inf, np.nan, -0.0])[rng.integers(0, 4, size=size)], values)
    with np.errstate(over="ignore"):
        return np.asarray(values.reshape(shape).astype(numpy_dtype(element)))
