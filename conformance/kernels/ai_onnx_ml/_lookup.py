"""Vectorised key look-up shared by this domain's encoders (LabelEncoder, CategoryMapper, OneHotEncoder ...).

`KeyTable(keys)` finds, for every element of an array, the position of the last key equal to it (-1 where
none is): the keys are sorted once, the elements found with a binary search. Keys and elements compare by
value (-0.0 equals 0.0); whether a NaN element matches a NaN key is the caller's choice. Keys and elements
of different kinds (strings against numbers) never match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def as_text(values: Any) -> np.ndarray:
    """Strings (or bytes, decoded as UTF-8) as an object array of `str`, keeping the shape."""
    array = np.asarray(values, dtype=object)
    flat = [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in array.reshape(-1)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(array.shape)


def _is_text(array: np.ndarray) -> bool:
    return array.dtype.kind in "OUS"


class KeyTable:
    """The last position of each distinct key, searchable for many elements at once."""

    def __init__(self, keys: Sequence[Any] | np.ndarray, *, nan_matches: bool = False) -> None:
        array = np.asarray(keys)
        if _is_text(array):
            array = as_text(array)
        self.text = _is_text(array) or (array.size == 0 and array.dtype == object)
        self.nan_position = -1
        if array.dtype.kind == "f":
            nan = np.isnan(array)
            if nan.any():
                self.nan_position = int(np.flatnonzero(nan)[-1]) if nan_matches else -1
                keep = np.flatnonzero(~nan)
                array, where = array[keep], keep
            else:
                where = np.arange(array.size)
        else:
            where = np.arange(array.size)
        # the last occurrence of each key: the first one in the reversed order
        unique, first_reversed = np.unique(array[::-1], return_index=True)
        self.keys = unique
        self.positions = where[::-1][first_reversed]
        self.kind = array.dtype.kind

    def find(self, x: np.ndarray) -> np.ndarray:
        """Positions (int64, x's shape) of the last key equal to each element of x; -1 where none is."""
        x = np.asarray(x)
        out = np.full(x.shape, -1, dtype=np.int64)
        if _is_text(x) != self.text or self.keys.size == 0 or x.size == 0:
            return self._nan_positions(x, out)
        if _is_text(x):
            x = as_text(x)
        at = np.minimum(np.searchsorted(self.keys, x), self.keys.size - 1)
        hit = self.keys[at] == x
        out[hit] = self.positions[at[hit]]
        return self._nan_positions(x, out)

    def _nan_positions(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        if self.nan_position >= 0 and x.dtype.kind == "f":
            out[np.isnan(x)] = self.nan_position
        return out


def pick(positions: np.ndarray, values: np.ndarray, default: Any) -> np.ndarray:
    """values[p] where p >= 0, else `default`, in values' dtype and positions' shape."""
    values = np.asarray(values)
    if values.size == 0:
        return np.full(positions.shape, default, dtype=values.dtype)
    taken = values[np.maximum(positions, 0)]
    fill = np.asarray(default, dtype=values.dtype) if values.dtype != object else default
    out = np.where(positions >= 0, taken, fill)
    return out.astype(values.dtype, copy=False)
