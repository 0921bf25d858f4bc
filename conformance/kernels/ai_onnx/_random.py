"""What the random ops' kernels share: our seed semantics and the output type a `dtype` attribute chooses.

The kernels whose output type may be their input's (the *Like ops, Bernoulli) or whose input only gives a shape or
probabilities register with `exact_types`: they read an ml_dtypes input (bfloat16 ...) as it is and draw in float64,
rounding once to the output type, so a bfloat16 input gives a bfloat16 output.

onnx defines no values for a seed, so the reference fixes its own meaning (the YAML docs say so): a seed selects a
numpy PCG64 generator from the seed's value (a float seed by its float64 bits, an int seed modulo 2**64), so the
same seed gives the same values in our kernels, on every platform numpy runs on; without a seed the generator
takes fresh entropy from the operating system and every call draws anew.
"""

from __future__ import annotations

import numpy as np

from conformance.element_types import FLOATS, element_of
from conformance.kernels.ai_onnx._common import numpy_dtype_of_code, numpy_element_dtype


def generator(seed: float | int | None) -> np.random.Generator:
    """The generator of one call: seeded by `seed` (a float attribute's value, Dropout's int), else fresh."""
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, float):
        bits = int(np.asarray(seed, dtype=np.float64).view(np.uint64))
    else:
        bits = int(seed) % 2**64
    return np.random.Generator(np.random.PCG64(bits))


def float_seed(seed: float | None) -> float | None:
    """A float seed attribute as the generator takes it (an int given by a caller counts as its float value)."""
    return None if seed is None else float(seed)


def output_dtype(op: str, dtype: int | None, like: np.ndarray | None = None) -> np.dtype:
    """The output type `dtype` names, else the type of `like` (the *Like ops' and Bernoulli's input)."""
    if dtype is not None:
        return numpy_dtype_of_code(op, dtype)
    if like is None:
        raise ValueError(f"{op}: no dtype and no input to take the output type from")
    return numpy_element_dtype(op, like.dtype)


def float_output_dtype(op: str, dtype: int | None, like: np.ndarray | None = None) -> np.dtype:
    """`output_dtype` for the ops whose output is a float type (RandomNormal, RandomUniform and their *Like; bfloat16
    is ml_dtypes')."""
    target = output_dtype(op, dtype, like)
    if element_of(target) not in FLOATS:
        raise ValueError(f"{op}: the output type must be a float type, {target} is not (give dtype)")
    return target


def checked_shape(op: str, shape: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"{op}: negative dim in shape {list(dims)}")
    return dims
