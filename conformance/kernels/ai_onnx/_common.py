"""Small helpers shared by the ai.onnx kernels (not kernels themselves)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def work_dtype(x: np.ndarray) -> np.dtype:
    """The dtype to compute in: half precision widens to float32, everything else stays."""
    if x.dtype == np.float16 or x.dtype.name == "bfloat16":
        return np.dtype(np.float32)
    return x.dtype


def legacy_broadcast(op: str, a: np.ndarray, b: np.ndarray, broadcast: int, axis: int | None) -> np.ndarray:
    """Reshape `b` for the opset-1/6 `broadcast`/`axis` rule: b's shape is a contiguous run of a's dims."""
    if not broadcast:
        if a.shape != b.shape:
            raise ValueError(f"{op}: shapes {a.shape} and {b.shape} differ and broadcast=0")
        return b
    if b.size == 1 and b.ndim <= a.ndim:  # a 1-element B ((), (1,), (1, 1) ...) is a scalar here
        return b.reshape(())
    start = a.ndim - b.ndim if axis is None else (axis + a.ndim if axis < 0 else axis)
    if start < 0 or start + b.ndim > a.ndim or a.shape[start:start + b.ndim] != b.shape:
        raise ValueError(f"{op}: B of shape {b.shape} does not match A {a.shape} at axis {start}")
    return b.reshape(b.shape + (1,) * (a.ndim - start - b.ndim))


def normalize_axes(op: str, axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """Negative axes made positive; out-of-range or repeated axes raise ValueError."""
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise ValueError(f"{op}: axis {a} is out of range for rank {rank}")
        out.append(a + rank if a < 0 else a)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: repeated axes {list(axes)}")
    return tuple(out)


def broadcast_shape(op: str, *arrays: np.ndarray) -> tuple[int, ...]:
    """numpy's multidirectional broadcast of the arrays' shapes; ValueError naming `op` when they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(*(np.shape(x) for x in arrays)))
    except ValueError as e:
        raise ValueError(f"{op}: shapes {[np.shape(x) for x in arrays]} do not broadcast") from e


def same_shapes(op: str, arrays: Sequence[np.ndarray]) -> None:
    """ValueError naming `op` unless every array has the first one's shape (variadic ops before broadcasting)."""
    if any(np.shape(x) != np.shape(arrays[0]) for x in arrays):
        raise ValueError(f"{op}: inputs must share one shape, got {[np.shape(x) for x in arrays]}")


def no_integer_zero(op: str, divisor: np.ndarray) -> None:
    """ValueError when an integer `divisor` holds 0 (integer division by zero has no defined result)."""
    if divisor.dtype.kind in "iu" and bool(np.any(divisor == 0)):
        raise ValueError(f"{op}: an integer divisor holds 0, which has no defined result")
def paired_quantization(scale: np.ndarray, zero_point: np.ndarray) -> bool:
    """A scale and its zero point fit together: one shape, or one element each at rank 0 or 1 (per tensor: the
    registry's one quantization rule, `per_tensor` in formulas)."""
    return scale.shape == zero_point.shape or (scale.size == 1 and scale.ndim <= 1 and zero_point.size == 1
                                               and zero_point.ndim <= 1)


def float_unary(fn: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """`fn` applied elementwise in `work_dtype(x)` and rounded back to x's dtype, always as an array (a 0-d input
    too). Out-of-domain inputs give NaN or an infinity silently, as IEEE arithmetic does (no numpy warning)."""
    with np.errstate(all="ignore"):
        y = fn(x.astype(work_dtype(x), copy=False))
    return np.asarray(y).astype(x.dtype, copy=False)
def swish_of(x: np.ndarray, alpha: float) -> np.ndarray:
    """x * sigmoid(alpha * x) in x's (float) dtype, without overflow in exp for large |alpha * x|."""
    z = alpha * x
    e = np.exp(-np.abs(z))  # in (0, 1]
    sigmoid = np.where(z >= 0, 1 / (1 + e), e / (1 + e))
    return np.asarray(x * sigmoid)


def checked_axis(op: str, axis: int, rank: int) -> int:
    """`axis` in [-rank, rank-1] made non-negative; ValueError otherwise."""
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def as_rows(x: np.ndarray, axis: int) -> np.ndarray:
    """`x` coerced to the 2-D matrix [a_0 * ... * a_{axis-1}, a_axis * ... * a_{n-1}] (opset 1/11 Softmax family)."""
    rows = int(np.prod(x.shape[:axis], dtype=np.int64))
    return x.reshape(rows, int(np.prod(x.shape[axis:], dtype=np.int64)))


def cumulate(op: str, x: np.ndarray, axis: np.ndarray, exclusive: int, reverse: int) -> np.ndarray:
    """CumSum/CumProd along the 0-D `axis`: integers wrap in their own type, half precision runs in float32."""
    if np.ndim(axis) != 0:
        raise ValueError(f"{op}: axis must be a 0-D tensor, not of shape {list(np.shape(axis))}")
    ax = checked_axis(op, int(axis), x.ndim)
    work = x.astype(work_dtype(x), copy=False)
    if reverse:
        work = np.flip(work, ax)
    running = (np.cumsum if op == "CumSum" else np.cumprod)(work, axis=ax, dtype=work.dtype)
    if exclusive:  # shift by one along the axis: the first element becomes the identity (0 or 1)
        shifted = np.zeros_like(running) if op == "CumSum" else np.ones_like(running)
        body = [slice(None)] * x.ndim
        head = list(body)
        body[ax], head[ax] = slice(1, None), slice(None, -1)
        shifted[tuple(body)] = running[tuple(head)]
        running = shifted
    if reverse:
        running = np.flip(running, ax)
    return np.asarray(running).astype(x.dtype, copy=False)


def reduction_axes(op: str, rank: int, axes: Sequence[int] | np.ndarray | None,
                   noop_with_empty_axes: int) -> tuple[int, ...]:
    """The axes a Reduce* op reduces, as numpy's `axis` tuple: every axis when `axes` is absent or empty, or
    none at all when noop_with_empty_axes is 1 (then only the op's elementwise steps remain); negative axes made
    positive, out-of-range or repeated ones raise ValueError. Versions with an `axes` attribute pass 0."""
    given = [] if axes is None else np.asarray(axes).reshape(-1).tolist()
    if not given:
        return () if noop_with_empty_axes else tuple(range(rank))
    return normalize_axes(op, given, rank)


def accumulator(x: np.ndarray) -> np.dtype:
    """The dtype a sum or product of `x` runs in: half precision in float32, other floats in their own width,
    signed integers in int64 and unsigned in uint64 (a result cast back to x's type then wraps as x's own
    two's-complement arithmetic would)."""
    if x.dtype.kind == "i":
        return np.dtype(np.int64)
    if x.dtype.kind in "ub":
        return np.dtype(np.uint64)
    return work_dtype(x)


def to_integer(op: str, y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A floating result converted to integer `dtype` as Cast does (truncation toward zero); a value that is not
    finite has no integer counterpart and raises ValueError."""
    if not np.all(np.isfinite(y)):
        raise ValueError(f"{op}: the result is not finite, which {dtype} cannot hold (undefined for integers)")
    return np.asarray(np.trunc(y)).astype(dtype)


def numpy_dtype_of(op: str, element: str) -> np.dtype:
    """The numpy dtype of an ONNX element type name (ml_dtypes' for bfloat16, float8, int4 ...); ValueError for a
    name ONNX does not know."""
    from conformance.element_types import numpy_dtype
    from opset.dtypes import ELEMENT_TYPES

    if element not in ELEMENT_TYPES:
        raise ValueError(f"{op}: {element!r} is no ONNX element type")
    return numpy_dtype(element)


def numpy_element_dtype(op: str, dtype: np.dtype) -> np.dtype:
    """`dtype` itself when it is an ONNX element type's dtype, else ValueError."""
    from conformance.element_types import element_of

    if element_of(dtype) is None:
        raise ValueError(f"{op}: {dtype} is no ONNX element type")
    return np.dtype(dtype)


def numpy_dtype_of_code(op: str, code: int) -> np.dtype:
    """The numpy dtype of a TensorProto DataType number (`to`, `dtype` attributes)."""
    from opset.dtypes import CODE_TO_ELEMENT

    if code not in CODE_TO_ELEMENT:
        raise ValueError(f"{op}: {code} is no TensorProto DataType")
    return numpy_dtype_of(op, CODE_TO_ELEMENT[code])


def convert_elements(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Cast's conversion between the types numpy holds.

    Floating point to fixed point truncates toward zero (the conversion of a value out of the target's range is
    undefined in ONNX); fixed point to fixed point keeps the low bits (two's complement); to bool, zero is false and
    everything else (NaN too) true; from bool, 1 and 0; to floating point, round to nearest even, with +/- infinity
    out of range. numpy's C casts do exactly this, so the one subtlety left is that a float in (-1, 0) truncates to
    zero before it meets an unsigned type.
    """
    with np.errstate(invalid="ignore", over="ignore"):
        source = np.trunc(x) if x.dtype.kind == "f" and dtype.kind in "iu" else x
        return np.asarray(source.astype(dtype))
def round_add_saturate(scaled: np.ndarray, zero_point: np.ndarray | None, dtype: np.dtype) -> np.ndarray:
    """`saturate(round(scaled) + zero_point)` as `dtype` (an integer type): rounding half to even first, then
    the zero point added, then values clipped to the type's range (the quantizers' output rule)."""
    info = np.iinfo(dtype)
    y = np.rint(np.asarray(scaled, dtype=np.float64))
    if zero_point is not None:
        y = y + np.asarray(zero_point, dtype=np.float64)
    return np.asarray(np.clip(y, info.min, info.max).astype(dtype))


def normalized(x: np.ndarray, axes: tuple[int, ...], epsilon: float, dtype: np.dtype) -> np.ndarray:
    """(x - mean) / sqrt(variance + epsilon) over `axes`, computed in `dtype` (the variance as the mean of squared
    deviations, the two-pass form the operators' texts write)."""
    xs = x.astype(dtype, copy=False)
    mean = np.mean(xs, axis=axes, keepdims=True, dtype=dtype)
    deviation = xs - mean
    variance = np.mean(deviation * deviation, axis=axes, keepdims=True, dtype=dtype)
    return np.asarray(deviation / np.sqrt(variance + np.asarray(epsilon, dtype=dtype)))


STASH_DTYPES: dict[int, np.dtype[Any]] = {1: np.dtype(np.float32), 10: np.dtype(np.float16), 11: np.dtype(np.float64)}


def stash_dtype(op: str, stash_type: int) -> np.dtype:
    """The numpy type of a `stash_type` (a TensorProto code); bfloat16 (16) has none, so the case is unsupported."""
    if stash_type in STASH_DTYPES:
        return STASH_DTYPES[stash_type]
    from conformance.backends.protocol import Unsupported

    raise Unsupported(f"{op}: stash_type {stash_type} has no numpy type")


def quantization_layout(op: str, name: str, value: np.ndarray, shape: tuple[int, ...], axis: int,
                        block_size: int = 0) -> np.ndarray:
    """A scale or zero point shaped to broadcast against an input of `shape`: per tensor (one element of rank <= 1),
    per axis (1-D of the axis' length) or, with block_size > 0, blocked (the input's rank, ceil(D / block_size)
    along axis, each value repeated over its block)."""
    r = len(shape)
    if block_size == 0 and value.ndim <= 1 and value.size == 1:
        return value.reshape(())
    if not -r <= axis < r:
        raise ValueError(f"{op}: axis {axis} is out of range for rank {r}")
    a = axis % r
    if block_size == 0:
        if value.ndim != 1 or value.shape[0] != shape[a]:
            raise ValueError(f"{op}: {name} {value.shape} is neither per tensor nor per axis {a} of {shape}")
        return value.reshape([-1 if i == a else 1 for i in range(r)])
    want = tuple(-(-d // block_size) if i == a else d for i, d in enumerate(shape))
    if block_size < 0 or value.shape != want:
        raise ValueError(f"{op}: blocked {name} {value.shape} must be {want} for {shape}, axis {a}, block {block_size}")
    return np.repeat(value, block_size, axis=a).take(np.arange(shape[a]), axis=a)


def zero_of(dtype: np.dtype) -> Any:
    """The fill value an op's "zero" stands for in `dtype`: 0 (False for bool), and for a string tensor (an object
    array of str) the empty string, the value a TensorProto's string element has by default."""
    return "" if np.dtype(dtype).kind == "O" else np.zeros((), dtype=dtype)[()]


def zeros_of(shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An array of `shape` and `dtype` holding `zero_of(dtype)` (empty strings for a string tensor)."""
    return np.full(tuple(int(d) for d in shape), zero_of(dtype), dtype=dtype)


def as_array_of(value: Any, dtype: np.dtype) -> np.ndarray:
    """`value` as an array of `dtype`: indexing an object array down to one element gives the bare str, which
    `np.asarray` alone would turn into a fixed-width `<U` array instead of a 0-d string tensor."""
    return np.asarray(value, dtype=dtype)
