"""Imputer: elements equal to the replaced value (any NaN for a NaN one) become the imputed value of their
feature (X's last axis) or the one imputed value; floats for a float X, int64s for an integer X."""

from __future__ import annotations

import numpy as np

from conformance.kernels.registry import kernel


@kernel("ai.onnx.ml", "Imputer", since=1)
def imputer(X: np.ndarray, *, imputed_value_floats: list[float] | None, imputed_value_int64s: list[int] | None,
            replaced_value_float: float, replaced_value_int64: int) -> tuple[np.ndarray, ...]:
    floating = X.dtype.kind == "f"
    values = imputed_value_floats if floating else imputed_value_int64s
    if not values:
        wanted = "imputed_value_floats" if floating else "imputed_value_int64s"
        raise ValueError(f"Imputer: a {X.dtype} X needs {wanted}")
    if X.ndim == 0:
        raise ValueError("Imputer: X needs at least one axis")
    if len(values) != 1 and (len(values) != X.shape[-1] or X.ndim > 2):
        raise ValueError(f"Imputer: {len(values)} imputed values for X of shape {list(X.shape)}: one, or one "
                         "per feature of an [N, F] or [F] tensor")
    imputed = np.asarray(values, dtype=np.float64 if floating else np.int64)
    if not floating:
        info = np.iinfo(X.dtype)
        if imputed.min() < info.min or imputed.max() > info.max:
            raise ValueError(f"Imputer: imputed values {values} do not fit {X.dtype}")
        hit = X.astype(np.int64) == replaced_value_int64
    elif np.isnan(replaced_value_float):
        hit = np.isnan(X)
    else:
        hit = X == replaced_value_float
    return (np.where(hit, imputed.astype(X.dtype), X),)
