"""CastMap: a map from int64 keys to one row [1, n], cast to float, int64 or string as onnxruntime casts:
DENSE keeps the values in ascending key order, SPARSE puts each at the position its key gives in [0, max_map)
and pads the rest (0, or "0.f" for strings)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from conformance.kernels.registry import kernel

_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(inf(inity)?|nan|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)", re.IGNORECASE)
_TARGETS: dict[str, np.dtype[Any]] = {"TO_FLOAT": np.dtype(np.float32), "TO_INT64": np.dtype(np.int64),
                                      "TO_STRING": np.dtype(object)}
_PADS: dict[str, Any] = {"TO_FLOAT": 0.0, "TO_INT64": 0, "TO_STRING": "0.f"}


def _number_prefix(text: str, pattern: re.Pattern[str], what: str) -> str:
    """The number a string starts with, as C's strtof/strtoll read it (leading blanks skipped)."""
    found = pattern.match(text)
    if found is None:
        raise ValueError(f"CastMap: {text!r} does not start with {what}")
    return found.group(0)


def _cast(values: list[Any], cast_to: str) -> np.ndarray:
    texts = [v.decode("utf-8") if isinstance(v, bytes) else v for v in values]
    if all(isinstance(v, str) for v in texts) and texts:
        if cast_to == "TO_STRING":
            out = np.empty(len(texts), dtype=object)
            out[:] = texts
            return out
        if cast_to == "TO_FLOAT":
            return np.asarray([float(_number_prefix(t, _FLOAT_PREFIX, "a number")) for t in texts], np.float32)
        return np.asarray([int(_number_prefix(t, _INT_PREFIX, "an integer")) for t in texts], np.int64)
    numbers = np.asarray(texts, dtype=np.float32)
    if cast_to == "TO_FLOAT":
        return numbers
    if cast_to == "TO_INT64":
        if not np.isfinite(numbers).all():
            raise ValueError("CastMap: a non-finite value has no int64")
        return np.trunc(numbers).astype(np.int64)  # toward zero, as a C++ cast
    out = np.empty(len(texts), dtype=object)
    out[:] = [f"{float(v):f}" for v in numbers]  # std::to_string: printf's %f
    return out


@kernel("ai.onnx.ml", "CastMap", since=1)
def cast_map(X: Mapping[int, Any], *, cast_to: str, map_form: str, max_map: int) -> tuple[np.ndarray, ...]:
    if cast_to not in _TARGETS:
        raise ValueError(f"CastMap: unknown cast_to {cast_to!r}")
    keys = sorted(int(k) for k in X)
    values = _cast([X[k] for k in keys], cast_to).astype(_TARGETS[cast_to])
    if map_form == "DENSE":
        return (values.reshape(1, -1),)
    if map_form != "SPARSE":
        raise ValueError(f"CastMap: unknown map_form {map_form!r}")
    if keys and (keys[0] < 0 or keys[-1] >= max_map):
        raise ValueError(f"CastMap: SPARSE keys must lie in [0, {max_map}), got {keys}")
    out = np.full(max_map, _PADS[cast_to], dtype=_TARGETS[cast_to])
    out[np.asarray(keys, dtype=np.int64)] = values
    return (out.reshape(1, -1),)
