"""LabelEncoder: each element of X to the value of its key.

Version 1 maps strings to their index in classes_strings and int64 indices back to strings. Versions 2 and 4
map keys_* to values_* (the last of repeated keys wins) with a default for elements no key matches; version
2 compares float keys bit by bit, version 4 by value with a NaN key matching every NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.kernels.ai_onnx_ml._lookup import KeyTable, as_text, pick
from conformance.kernels.registry import kernel


def _is_text(x: np.ndarray) -> bool:
    return x.dtype.kind in "OUS"


@kernel("ai.onnx.ml", "LabelEncoder", since=1, until=1)
def label_encoder_1(X: np.ndarray, *, classes_strings: list[str] | None, default_int64: int,
                    default_string: str) -> tuple[np.ndarray, ...]:
    if classes_strings is None:
        raise ValueError("LabelEncoder-1: classes_strings must be given")
    classes = as_text(classes_strings)
    if _is_text(X):
        return (pick(KeyTable(classes).find(as_text(X)), np.arange(len(classes), dtype=np.int64), default_int64),)
    if X.dtype != np.int64:
        raise ValueError(f"LabelEncoder-1: X must hold strings or int64, not {X.dtype}")
    inside = (X >= 0) & (X < len(classes))
    return (pick(np.where(inside, X, -1), classes, default_string),)


def _one(kind: str, candidates: dict[str, Any]) -> tuple[str, Any]:
    given = [(name, value) for name, value in candidates.items() if value is not None]
    if len(given) != 1:
        raise ValueError(f"LabelEncoder: exactly one {kind}_* attribute must be given, got "
                         f"{[name for name, _ in given] or 'none'}")
    return given[0]


_LIST_DTYPES = {"strings": np.dtype(object), "int64s": np.dtype(np.int64), "floats": np.dtype(np.float32)}


def _as_array(name: str, value: Any) -> np.ndarray:
    """A keys_*/values_* attribute as an array of its element type (a tensor keeps its own, flattened)."""
    suffix = name.rsplit("_", 1)[1]
    if suffix == "tensor":
        array = np.asarray(value).reshape(-1)
        return as_text(array) if _is_text(array) else array
    if suffix == "strings":
        return as_text(value)
    return np.asarray(value, dtype=_LIST_DTYPES[suffix])


def _same_kind(x: np.ndarray, keys: np.ndarray) -> bool:
    return _is_text(x) == _is_text(keys) and (_is_text(x) or x.dtype == keys.dtype)


def _mapping(X: np.ndarray, keys_given: dict[str, Any], values_given: dict[str, Any]
             ) -> tuple[np.ndarray, np.ndarray]:
    key_name, key_value = _one("keys", keys_given)
    value_name, value_value = _one("values", values_given)
    keys, values = _as_array(key_name, key_value), _as_array(value_name, value_value)
    if len(keys) != len(values):
        raise ValueError(f"LabelEncoder: {len(keys)} keys but {len(values)} values")
    if not _same_kind(X, keys):
        raise ValueError(f"LabelEncoder: X holds {X.dtype} but the keys ({key_name}) {keys.dtype}")
    return keys, values


@kernel("ai.onnx.ml", "LabelEncoder", since=2, until=3)
def label_encoder_2(X: np.ndarray, *, keys_strings: list[str] | None, keys_int64s: list[int] | None,
                    keys_floats: list[float] | None, values_strings: list[str] | None,
                    values_int64s: list[int] | None, values_floats: list[float] | None, default_string: str,
                    default_int64: int, default_float: float) -> tuple[np.ndarray, ...]:
    keys, values = _mapping(X, {"keys_strings": keys_strings, "keys_int64s": keys_int64s,
                                "keys_floats": keys_floats},
                            {"values_strings": values_strings, "values_int64s": values_int64s,
                             "values_floats": values_floats})
    if keys.dtype == np.float32:  # version 2 compares float keys bit by bit (NaN included, -0.0 apart from 0.0)
        positions = KeyTable(keys.view(np.uint32)).find(np.asarray(X).view(np.uint32))
    else:
        positions = KeyTable(keys).find(as_text(X) if _is_text(X) else X)
    default = {"O": default_string, "i": default_int64, "f": default_float}[values.dtype.kind]
    return (pick(positions, values, default),)


def _default_4(values: np.ndarray, default_tensor: np.ndarray | None, default_string: str, default_int64: int,
               default_float: float) -> Any:
    """default_tensor's one value where given, else the default_* of the values' type (the text's {-1} and
    {-0.0} for the types without one), as onnxruntime reads them."""
    if default_tensor is not None:
        given = np.asarray(default_tensor)
        if given.size != 1 or _is_text(given) != _is_text(values):
            raise ValueError(f"LabelEncoder: default_tensor {given!r} is not one value of the values' type")
        item = given.reshape(-1)[0]
        return as_text([item])[0] if _is_text(values) else item
    if _is_text(values):
        return default_string
    if values.dtype == np.int64:
        return default_int64
    if values.dtype == np.float32:
        return default_float
    return -1 if values.dtype.kind in "iu" else -0.0


@kernel("ai.onnx.ml", "LabelEncoder", since=4)
def label_encoder_4(X: np.ndarray, *, keys_tensor: np.ndarray | None, keys_strings: list[str] | None,
                    keys_int64s: list[int] | None, keys_floats: list[float] | None,
                    values_tensor: np.ndarray | None, values_strings: list[str] | None,
                    values_int64s: list[int] | None, values_floats: list[float] | None,
                    default_tensor: np.ndarray | None, default_string: str, default_int64: int,
                    default_float: float) -> tuple[np.ndarray, ...]:
    keys, values = _mapping(X, {"keys_tensor": keys_tensor, "keys_strings": keys_strings,
                                "keys_int64s": keys_int64s, "keys_floats": keys_floats},
                            {"values_tensor": values_tensor, "values_strings": values_strings,
                             "values_int64s": values_int64s, "values_floats": values_floats})
    positions = KeyTable(keys, nan_matches=True).find(as_text(X) if _is_text(X) else X)
    default = _default_4(values, default_tensor, default_string, default_int64, default_float)
    return (pick(positions, values, default),)
