"""Eltwise (tengine, op id 9): the elementwise operation selected by `type` (tengine-lite's enum EltType)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from conformance.kernels.registry import kernel

_Binary = Callable[[np.ndarray, np.ndarray], np.ndarray]
_Unary = Callable[[np.ndarray], np.ndarray]

# Binary types read the whole second input (broadcast as Tengine does); *_SCALAR types read its first value.
_BINARY: dict[int, _Binary] = {0: np.multiply, 2: np.add, 4: np.subtract, 6: np.maximum, 10: np.divide, 16: np.power}
_SCALAR: dict[int, _Binary] = {1: np.multiply, 3: np.add, 5: np.subtract, 8: np.minimum}
_UNARY: dict[int, _Unary] = {
    7: lambda a: 1 / np.sqrt(a),
    11: np.log,
    12: np.exp,
    13: np.sqrt,
    14: np.floor,
    15: np.square,
}
_POWER = 17


def _broadcast_second(a: np.ndarray, b: np.ndarray, op_type: int) -> np.ndarray:
    """B reshaped against A: a single value, A's element count, or one value per (batch, channel)."""
    if b.size == a.size:
        return b.reshape(a.shape)
    if op_type == 6:
        raise ValueError(f"Eltwise: ELT_MAX needs equal element counts, got {a.shape} and {b.shape}")
    if b.size == 1:
        return b.reshape(())
    if a.ndim == 4 and b.size == a.shape[0] * a.shape[1]:
        return b.reshape(a.shape[0], a.shape[1], 1, 1)
    raise ValueError(f"Eltwise: B {b.shape} does not broadcast against A {a.shape}")


@kernel("tengine", "Eltwise", since=1)
def eltwise(a: np.ndarray, b: np.ndarray | None, *, type: int, caffe_flavor: int, shift: float, power: float,
            scale: float) -> tuple[np.ndarray, ...]:
    work_dtype = np.promote_types(a.dtype, np.float32)
    wa = a.astype(work_dtype, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        if type in _UNARY:
            y = _UNARY[type](wa)
        elif type == _POWER:
            y = np.power(np.asarray(shift, work_dtype) + np.asarray(scale, work_dtype) * wa,
                         np.asarray(power, work_dtype))
        elif b is None:
            raise ValueError(f"Eltwise: type {type} needs a second input")
        elif type in _BINARY:
            y = _BINARY[type](wa, _broadcast_second(a, b, type).astype(work_dtype, copy=False))
        elif type in _SCALAR:
            y = _SCALAR[type](wa, b.reshape(-1)[:1].reshape(()).astype(work_dtype))
        else:
            raise ValueError(f"Eltwise: unknown type {type}")
    return (np.asarray(y).astype(a.dtype, copy=False),)
