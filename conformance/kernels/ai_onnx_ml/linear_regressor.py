"""LinearRegressor: Y = X coefficients^T + intercepts, coefficients holding `targets` rows of X's width; then
post_transform across the targets (with one target only PROBIT changes the score, as in onnxruntime)."""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import floats, single_score, transform_rows, two_dims
from conformance.kernels.registry import kernel

OP = "LinearRegressor"


@kernel("ai.onnx.ml", OP, since=1)
def linear_regressor(X: np.ndarray, *, coefficients: list[float] | None, intercepts: list[float] | None,
                     post_transform: str, targets: int) -> tuple[np.ndarray, ...]:
    x = two_dims(OP, X).astype(np.float64)
    coef = floats(coefficients)
    if coef is None or targets < 1 or coef.size != targets * x.shape[1]:
        raise ValueError(f"{OP}: coefficients must hold {targets} rows of {x.shape[1]} values")
    y = x @ coef.reshape(targets, x.shape[1]).T
    bias = floats(intercepts)
    if bias is not None:
        if bias.size != targets:
            raise ValueError(f"{OP}: {bias.size} intercepts for {targets} targets")
        y = y + bias[None, :]
    y = single_score(y, post_transform) if targets == 1 else transform_rows(y, post_transform)
    return (y.astype(np.float32),)
