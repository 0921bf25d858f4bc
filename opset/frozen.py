"""Immutable, hashable values for the registry's records: `FrozenMap`, `freeze` and `thaw`.

Records keep what they read from YAML frozen (lists as tuples, mappings as `FrozenMap`), so a record
can key a cache and no consumer can change what another one reads. Consumers that need the plain
shape (formula environments, kernels, JSON) call `thaw`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from itertools import repeat
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A read-only mapping that keeps insertion order and hashes by its items."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._items: dict[K, V] = dict(items) if items is not None else {}
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


EMPTY: FrozenMap[Any, Any] = FrozenMap()


def adopt_dicts(dicts: Iterable[dict[Any, Any]]) -> list[FrozenMap[Any, Any]]:
    """FrozenMaps that take over the given dicts without copying them (the caller keeps no other reference): the
    compiled cache builds thousands at once (`opset.record_table`)."""
    adopted = list(dicts)
    maps = list(map(object.__new__, repeat(FrozenMap, len(adopted))))
    deque(map(_set_items, maps, adopted), 0)
    deque(map(_set_hash, maps, repeat(None)), 0)
    return maps


_SLOTS: dict[str, Any] = dict(vars(FrozenMap))
_set_items = _SLOTS["_items"].__set__
_set_hash = _SLOTS["_hash"].__set__


def freeze(value: Any) -> Any:
    """Lists become tuples and dicts FrozenMaps, all the way down; everything else is returned as is."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return FrozenMap({k: freeze(v) for k, v in value.items()})
    return value


def thaw(value: Any) -> Any:
    """The inverse of `freeze`: tuples become lists and mappings dicts, all the way down (fresh copies)."""
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    return value
