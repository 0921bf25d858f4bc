"""SVMRegressor: Y = sum_v coefficients[v] K(x, support_vector v) + rho[0] when n_supports > 0 (libsvm's SVR), else
the linear model X coefficients + rho[0]; one_class=1 maps each score to 1 (> 0) or -1. X is read in single
precision, as onnxruntime reads it. onnxruntime applies no post_transform to the single score, and neither does
the registry (onnx.reference refuses any but NONE).
"""

from __future__ import annotations

import numpy as np

from conformance.kernels.ai_onnx_ml._scores import floats, two_dims
from conformance.kernels.ai_onnx_ml._svm import kernel_matrix
from conformance.kernels.registry import kernel

OP = "SVMRegressor"


@kernel("ai.onnx.ml", OP, since=1)
def svm_regressor(X: np.ndarray, *, coefficients: list[float] | None, kernel_params: list[float] | None,
                  kernel_type: str, n_supports: int, one_class: int, post_transform: str, rho: list[float] | None,
                  support_vectors: list[float] | None) -> tuple[np.ndarray, ...]:
    del post_transform  # no effect on the single score (see the module doc)
    x = two_dims(OP, X).astype(np.float32).astype(np.float64)
    coef, intercept = floats(coefficients), floats(rho)
    if coef is None or intercept is None or intercept.size < 1:
        raise ValueError(f"{OP}: coefficients and rho must be given")
    features = x.shape[1]
    if n_supports > 0:
        vectors = floats(support_vectors)
        if vectors is None or vectors.size != n_supports * features or coef.size != n_supports:
            raise ValueError(f"{OP}: {n_supports} support vectors of {features} features need "
                             f"{n_supports * features} support_vectors values and {n_supports} coefficients")
        y = kernel_matrix(OP, x, vectors.reshape(n_supports, features), kernel_type, kernel_params) @ coef
    else:
        if coef.size != features:
            raise ValueError(f"{OP}: {coef.size} coefficients for {features} features")
        y = x @ coef
    y = y + intercept[0]
    if one_class:
        y = np.where(y > 0, 1.0, -1.0)
    return (y.reshape(-1, 1).astype(np.float32),)
