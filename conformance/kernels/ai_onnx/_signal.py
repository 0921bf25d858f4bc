"""Helpers of the signal kernels (the cosine windows, MelWeightMatrix): scalar inputs and the output type an
`output_datatype` attribute names (not kernels themselves)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import convert_elements, numpy_dtype_of_code

# a computed value this close to an integer is that integer before a conversion to an integer type truncates it:
# the windows' exact values hit 0 and 1, which double arithmetic may miss by an ulp
INTEGER_SNAP = 1e-9


def scalar_value(op: str, name: str, x: np.ndarray) -> int | float:
    """The value of a 0-D input; ValueError for any other shape."""
    if np.ndim(x) != 0:
        raise ValueError(f"{op}: {name} must be a scalar, it has shape {list(np.shape(x))}")
    value = np.asarray(x).item()
    if not isinstance(value, int | float):
        raise ValueError(f"{op}: {name} must be a number, got {value!r}")
    return value


def as_output_type(op: str, y: np.ndarray, output_datatype: int) -> np.ndarray:
    """`y` (float64) in the type `output_datatype` names: floats rounded once; integers take the integer part
    of the exact value (values within INTEGER_SNAP of an integer count as it), which a NaN has none of."""
    dtype = numpy_dtype_of_code(op, output_datatype)
    if dtype.kind in "iu":
        if not np.all(np.isfinite(y)):
            raise ValueError(f"{op}: the result is not finite, which {dtype} cannot hold (undefined for integers)")
        nearest = np.rint(y)
        y = np.where(np.abs(y - nearest) <= INTEGER_SNAP, nearest, y)
    return convert_elements(y, dtype)


def cosine_window(op: str, size: np.ndarray, periodic: int, output_datatype: int,
                  coefficients: Sequence[float]) -> np.ndarray:
    """The generalized cosine window a0 - a1 cos(x) + a2 cos(2x) - ..., x = 2 pi n / N for n in [0, size), with
    N = size (periodic) or size - 1 (symmetric; a symmetric window of size 1 divides 0 by 0: NaN), in double."""
    length = scalar_value(op, "size", size)
    if not isinstance(length, int) or length < 1:
        raise ValueError(f"{op}: size must be an integer >= 1, got {length}")
    denominator = length if periodic else length - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        angle = np.arange(length, dtype=np.float64) * (2 * np.pi) / np.float64(denominator)
    # the even terms summed first, then the odd ones subtracted: Blackman's 0.42 + 0.08 is 0.5 in double, so its ends
    # come out 0 and its peak 1 exactly
    terms = [a * np.cos(k * angle) for k, a in enumerate(coefficients)]
    y = np.sum(terms[0::2], axis=0) - np.sum(terms[1::2], axis=0)
    return as_output_type(op, y, output_datatype)
