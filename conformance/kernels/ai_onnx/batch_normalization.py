"""BatchNormalization.

Opset 1/6: `is_test=0` normalises with batch statistics and returns the updated running mean/var and the
saved batch mean/var as well; `spatial=0` keeps per-activation statistics (shape C x D1 x ...).
Opset 7/9: inference (Y only). Opset 14/15: `training_mode=1` returns Y, running_mean, running_var.
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx._common import work_dtype
from conformance.kernels.registry import kernel


def _param_shape(x: np.ndarray, spatial: int) -> tuple[int, ...]:
    return (x.shape[1],) + (1,) * (x.ndim - 2) if spatial else x.shape[1:]


def _normalise(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, mean: np.ndarray, var: np.ndarray,
               epsilon: float, spatial: int) -> np.ndarray:
    if x.ndim < 2:
        raise ValueError(f"BatchNormalization: X must have rank >= 2, got shape {x.shape}")
    shape = _param_shape(x, spatial)
    wt = work_dtype(x)
    params = []
    for name, p in (("scale", scale), ("B", bias), ("mean", mean), ("var", var)):
        if p.size != int(np.prod(shape)):
            raise ValueError(f"BatchNormalization: {name} has shape {p.shape}, expected {shape} values")
        params.append(p.astype(wt, copy=False).reshape(shape))
    s, b, m, v = params
    k = s / np.sqrt(v + np.asarray(epsilon, wt))
    # one fused multiply-add over X: y = x * k + (b - m * k)
    y: np.ndarray = x.astype(wt, copy=False) * k
    y += b - m * k
    return y.astype(x.dtype, copy=False)


def _batch_stats(x: np.ndarray, spatial: int) -> tuple[np.ndarray, np.ndarray]:
    axes = (0, *range(2, x.ndim)) if spatial else (0,)
    xw = x.astype(np.float64)
    return xw.mean(axis=axes), xw.var(axis=axes)


def _training(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, mean: np.ndarray, var: np.ndarray,
              epsilon: float, momentum: float, spatial: int) -> tuple[np.ndarray, ...]:
    bm, bv = _batch_stats(x, spatial)
    y = _normalise(x, scale, bias, bm.astype(x.dtype), bv.astype(x.dtype), epsilon, spatial)
    run_mean = mean.astype(np.float64) * momentum + bm.reshape(mean.shape) * (1 - momentum)
    run_var = var.astype(np.float64) * momentum + bv.reshape(var.shape) * (1 - momentum)
    return (y, run_mean.astype(mean.dtype), run_var.astype(var.dtype),
            bm.reshape(mean.shape).astype(mean.dtype), bv.reshape(var.shape).astype(var.dtype))


@kernel("ai.onnx", "BatchNormalization", since=1, until=6)
def batch_normalization_v6(x: np.ndarray, scale: np.ndarray, b: np.ndarray, mean: np.ndarray, var: np.ndarray, *,
                           epsilon: float, momentum: float, is_test: int, spatial: int) -> tuple[np.ndarray, ...]:
    if is_test:
        return (_normalise(x, scale, b, mean, var, epsilon, spatial),)
    return _training(x, scale, b, mean, var, epsilon, momentum, spatial)


@kernel("ai.onnx", "BatchNormalization", since=7, until=8)
def batch_normalization_v7(x: np.ndarray, scale: np.ndarray, b: np.ndarray, mean: np.ndarray, var: np.ndarray, *,
                           epsilon: float, momentum: float, spatial: int) -> tuple[np.ndarray, ...]:
    return (_normalise(x, scale, b, mean, var, epsilon, spatial),)


@kernel("ai.onnx", "BatchNormalization", since=9, until=13)
def batch_normalization_v9(x: np.ndarray, scale: np.ndarray, b: np.ndarray, mean: np.ndarray, var: np.ndarray, *,
                           epsilon: float, momentum: float) -> tuple[np.ndarray, ...]:
    # opset 9 drops `spatial`: statistics are always per channel
    return (_normalise(x, scale, b, mean, var, epsilon, 1),)


@kernel("ai.onnx", "BatchNormalization", since=14)
def batch_normalization(x: np.ndarray, scale: np.ndarray, b: np.ndarray, input_mean: np.ndarray, input_var: np.ndarray,
                        *, epsilon: float, momentum: float, training_mode: int) -> tuple[np.ndarray, ...]:
    if not training_mode:
        return (_normalise(x, scale, b, input_mean, input_var, epsilon, 1),)
    return _training(x, scale, b, input_mean, input_var, epsilon, momentum, 1)[:3]
