"""Immutable, hashable values for the registry's records: `FrozenMap`, `freeze` and `thaw`, and `Record`, the
equality, hashing and repr every record class shares.

Records keep what they read from YAML frozen (lists as tuples, mappings as `FrozenMap`), so a record
can key a cache and no consumer can change what another one reads. Consumers that need the plain
shape (formula environments, kernels, JSON) call `thaw`.
"""

from __future__ import annotations

import inspect  # dataclasses imports it anyway
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import repeat
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

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


class Record:
    """What a frozen dataclass's generated `__eq__`, `__hash__` and `__repr__` do, written once for every record.

    Records compare, hash and print as `@dataclass(frozen=True)` makes them (same class and equal fields; the hash of
    the fields; `Name(field=value, ...)`), but dataclasses compiles those three methods from source for each class on
    every import: for the ~20 records that was a tenth of a cold `load_registry()`. The fields are read with one
    `attrgetter` per class, as fast as the generated code. `tests/registry/test_records.py` compares with dataclass's.
    A record class says `@dataclass(frozen=True, slots=True, eq=False, repr=False)` and derives from `Record`.
    """

    __slots__ = ()
    _field_values: ClassVar[Callable[[Any], tuple[Any, ...]]]
    _field_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = tuple(inspect.get_annotations(cls))  # a record's own fields, in order (records have no ClassVars)
        cls._field_names = names
        cls._field_values = attrgetter(*names) if len(names) > 1 else (lambda r: (getattr(r, names[0]),))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            values = type(self)._field_values
            return bool(values(self) == values(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(type(self)._field_values(self))

    def __repr__(self) -> str:
        values = type(self)._field_values(self)
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._field_names, values, strict=True))
        return f"{self.__class__.__qualname__}({shown})"


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
