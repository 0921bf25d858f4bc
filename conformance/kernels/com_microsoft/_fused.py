"""Helpers of the fused com.microsoft kernels (FusedConv, FusedGemm, FusedMatMul ...): the activations onnxruntime
fuses, the transposed matrix product, exact Gelu. Not kernels themselves.

Two activation vocabularies exist in onnxruntime. FusedConv and NhwcFusedConv take MLAS's (`mlas_activation`):
a name and a list `activation_params`. FusedGemm (and FusedMatMulActivation) take the elementwise functors of its
CPU activations (`functor_activation`): a name and the separate attributes activation_alpha/beta/gamma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from conformance.kernels.ai_onnx._common import to_integer, work_dtype
from conformance.kernels.tengine.gelu import erf

_PARAM_COUNT = {"LeakyRelu": 1, "Clip": 2, "HardSigmoid": 2}
_NO_PARAMS = ("Relu", "Tanh", "Sigmoid")
FUNCTOR_ACTIVATIONS = frozenset({"Elu", "HardSigmoid", "LeakyRelu", "Relu", "Selu", "Sigmoid", "Softplus", "Softsign",
                                 "Tanh", "ThresholdedRelu", "ParametricSoftplus", "ScaledTanh"})


def sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-z)) without overflow in exp, in z's dtype."""
    e = np.exp(-np.abs(z))
    return np.asarray(np.where(z >= 0, 1 / (1 + e), e / (1 + e)))


def softplus(z: np.ndarray) -> np.ndarray:
    """log(1 + exp(z)) without overflow: max(z, 0) + log1p(exp(-|z|))."""
    return np.asarray(np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z))))


def mlas_activation(op: str, y: np.ndarray, activation: str | None, params: Sequence[float] | None) -> np.ndarray:
    """The activation FusedConv applies (in y's dtype): none, Relu, Tanh, Sigmoid, or, with `activation_params`,
    LeakyRelu [alpha], Clip [min, max], HardSigmoid [alpha, beta]."""
    if activation is None:
        return y
    if activation in _NO_PARAMS:
        if activation == "Relu":
            return np.asarray(np.maximum(y, 0))
        return np.asarray(np.tanh(y)) if activation == "Tanh" else sigmoid(y)
    count = _PARAM_COUNT.get(activation)
    if count is None:
        raise ValueError(f"{op}: unsupported activation {activation!r}")
    if params is None or len(params) != count:
        raise ValueError(f"{op}: {activation} takes {count} activation_params, got {params}")
    a = np.asarray(params[0], dtype=y.dtype)
    if activation == "LeakyRelu":
        return np.asarray(np.where(y >= 0, y, a * y))
    b = np.asarray(params[1], dtype=y.dtype)
    if activation == "Clip":
        return np.asarray(np.minimum(np.maximum(y, a), b))
    return np.asarray(np.minimum(np.maximum(a * y + b, 0), 1))


def _need(op: str, activation: str, name: str, value: float | None) -> float:
    if value is None:
        raise ValueError(f"{op}: activation {activation} needs activation_{name}")
    return value


def functor_activation(op: str, y: np.ndarray, activation: str | None, alpha: float | None, beta: float | None,
                       gamma: float | None) -> np.ndarray:
    """The activation FusedGemm applies to a floating `y` (in y's dtype), named as onnxruntime's CPU activation
    functors: Elu, HardSigmoid, LeakyRelu, Relu, Selu, Sigmoid, Softplus, Softsign, Tanh, ThresholdedRelu,
    ParametricSoftplus (alpha * softplus(beta * x)) and ScaledTanh (alpha * tanh(beta * x))."""
    if activation is None:
        raise ValueError(f"{op}: onnxruntime's kernel needs an activation")
    if activation not in FUNCTOR_ACTIVATIONS:
        raise ValueError(f"{op}: unsupported activation {activation!r}")
    with np.errstate(over="ignore", invalid="ignore"):
        if activation == "Relu":
            return np.asarray(np.maximum(y, 0))
        if activation == "Sigmoid":
            return sigmoid(y)
        if activation == "Tanh":
            return np.asarray(np.tanh(y))
        if activation == "Softplus":
            return softplus(y)
        if activation == "Softsign":
            return np.asarray(y / (1 + np.abs(y)))
        a = np.asarray(_need(op, activation, "alpha", alpha), dtype=y.dtype)
        if activation == "LeakyRelu":
            return np.asarray(np.where(y >= 0, y, a * y))
        if activation == "ThresholdedRelu":
            return np.asarray(np.where(y > a, y, 0))
        if activation == "Elu":
            return np.asarray(np.where(y >= 0, y, a * np.expm1(np.minimum(y, 0))))
        if activation == "Selu":
            g = np.asarray(_need(op, activation, "gamma", gamma), dtype=y.dtype)
            return np.asarray(g * np.where(y > 0, y, a * np.expm1(np.minimum(y, 0))))
        b = np.asarray(_need(op, activation, "beta", beta), dtype=y.dtype)
        if activation == "HardSigmoid":
            return np.asarray(np.minimum(np.maximum(a * y + b, 0), 1))
        if activation == "ParametricSoftplus":
            return np.asarray(a * softplus(b * y))
        if activation == "ScaledTanh":
            return np.asarray(a * np.tanh(b * y))
    raise ValueError(f"{op}: unsupported activation {activation!r}")


def activate_any(op: str, y: np.ndarray, activation: str | None, alpha: float | None, beta: float | None,
                 gamma: float | None) -> np.ndarray:
    """`functor_activation` for any numeric y: an integer y is activated in float64 and truncated back toward
    zero (as a cast does), a floating one in its own dtype."""
    if y.dtype.kind in "iu":
        z = functor_activation(op, y.astype(np.float64), activation, alpha, beta, gamma)
        return to_integer(op, z, y.dtype)
    return functor_activation(op, y, activation, alpha, beta, gamma)


def effective_operand(x: np.ndarray, trans: int, trans_batch: int) -> np.ndarray:
    """A FusedMatMul operand as the product reads it: with transBatch, dim 0 moves behind the batch dims (to the
    row position), then with trans the last two dims swap. A vector is used as it is."""
    if x.ndim < 2:
        return x
    if trans_batch:
        x = np.transpose(x, (*range(1, x.ndim - 1), 0, x.ndim - 1))
    return np.swapaxes(x, -1, -2) if trans else x


def transposed_matmul(op: str, a: np.ndarray, b: np.ndarray, alpha: float, trans_a: int, trans_b: int,
                      trans_batch_a: int, trans_batch_b: int) -> np.ndarray:
    """alpha * matmul(A', B') in the work dtype (float32 for half precision), not yet rounded back."""
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"{op}: A and B must have rank 1 or more, got {a.shape} and {b.shape}")
    wt = work_dtype(a)
    ea = effective_operand(a.astype(wt, copy=False), trans_a, trans_batch_a)
    eb = effective_operand(b.astype(wt, copy=False), trans_b, trans_batch_b)
    try:
        y = np.matmul(ea, eb)
    except ValueError as e:
        raise ValueError(f"{op}: A {a.shape} and B {b.shape} do not multiply after the transpositions "
                         f"({ea.shape} and {eb.shape})") from e
    return np.asarray(y * np.asarray(alpha, dtype=wt)) if alpha != 1 else np.asarray(y)


def exact_gelu(x: np.ndarray) -> np.ndarray:
    """0.5 * x * (1 + erf(x / sqrt(2))) computed in float64."""
    xw = x.astype(np.float64)
    return np.asarray(0.5 * xw * (1.0 + erf(xw / math.sqrt(2.0))))


def check_last_dim_bias(op: str, x: np.ndarray, bias: np.ndarray, name: str = "bias") -> None:
    if bias.ndim != 1 or x.ndim == 0 or bias.shape[0] != x.shape[-1]:
        raise ValueError(f"{op}: {name} must be 1-D of the last dim of the input {x.shape}, got {bias.shape}")
