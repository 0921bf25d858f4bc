"""Built registry records as plain tables, and back: what the compiled cache stores.

A cache hit must build every record quickly, without YAML, inheritance, line maps or checks. So the cache keeps the
finished records as numbered entries, children before parents: a leaf is a plain value (str, int, float, bool, None),
any other entry is a tuple, a `FrozenMap`, a `Formula` (by its text) or a record of `opset.model`, whose parts are the
numbers of earlier entries. Equal entries are stored once, so a version's inherited attributes, params and locations
are built once and shared (records are immutable values, so sharing is invisible).

Entries are stored in batches of one kind whose parts all come from earlier batches, one column per field, so decoding
builds a whole batch with `map` over its columns (the records' own constructors, no Python loop per record): a few
hundred batches for the ~40,000 entries of the registry. Decoding executes nothing it reads, and a table that does not
fit (a wrong kind, a part that is not an earlier entry, a wrong field count) raises `TableError`, which the cache
treats as a miss.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections import deque
from collections.abc import Callable, Mapping
from itertools import islice, repeat
from typing import Any, Literal

from opset import model
from opset.formula import Formula
from opset.frozen import FrozenMap, adopt_dicts
from opset.model import Domain, OpSchema
from opset.registry import OpTable, Registry

# kinds of entries: leaf, tuple, FrozenMap, Formula, then the record classes (their index + RECORD_KINDS). This file
# and opset/model.py are part of the cache key, so a change to the list or to a record's fields makes old caches misses
LEAF, TUPLE, MAP, FORMULA, RECORD_KINDS = -1, 0, 1, 2, 3
RECORDS: tuple[type[Any], ...] = (
    model.Location, model.ValueDomain, model.GraphParam, model.GraphSignature, model.Attribute, model.Param,
    model.TypeConstraint, model.Constraint, model.Reading, model.RandomOutputs, model.Example, model.Property,
    model.Tolerance, model.ConstInput, model.FollowUp, model.MapsTo, model.BinaryField, model.OlderLayout,
    model.Tengine, model.Status, model.Precision,
    model.OpVersion, model.OpSchema, model.Domain,
)
_FIELDS: tuple[tuple[str, ...], ...] = tuple(tuple(f.name for f in dataclasses.fields(cls)) for cls in RECORDS)
_KIND_OF: dict[type[Any], int] = {cls: i + RECORD_KINDS for i, cls in enumerate(RECORDS)}
Entry = Any  # a leaf value, or [kind, [part numbers]]
# columns hold entry numbers as unsigned ints of this machine (its byte order and int width are in the cache key)
_INT: Literal["I"] = "I"


class TableError(ValueError):
    """A table that does not decode into records: the cache is corrupt or was written by other code."""


class _Interner:
    """Numbers the distinct entries of a set of records, children first; equal entries get one number."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.index: dict[Any, int] = {}
        self.children: list[tuple[int, ...]] = []

    def add(self, value: Any) -> int:
        if isinstance(value, Formula):
            return self._entry(("F", value.text), [FORMULA, [self.add(value.text)]])
        if isinstance(value, tuple):
            parts = [self.add(v) for v in value]
            return self._entry(("T", *parts), [TUPLE, parts])
        if isinstance(value, FrozenMap):
            parts = [i for k, v in value.items() for i in (self.add(k), self.add(v))]
            return self._entry(("M", *parts), [MAP, parts])
        kind = _KIND_OF.get(type(value))
        if kind is not None:
            parts = [self.add(getattr(value, name)) for name in _FIELDS[kind - RECORD_KINDS]]
            return self._entry((kind, *parts), [kind, parts])
        if value is None or isinstance(value, str | int | float):  # bool is an int
            # the type is part of the identity: 1, 1.0 and True are equal keys but different values
            return self._entry(("V", type(value).__name__, repr(value)), value)
        raise TypeError(f"cannot store a {type(value).__name__} in the registry cache: {value!r}")

    def _entry(self, identity: Any, entry: Entry) -> int:
        found = self.index.get(identity)
        if found is None:
            found = self.index[identity] = len(self.entries)
            self.entries.append(entry)
            self.children.append(tuple(entry[1]) if isinstance(entry, list) else ())
        return found


def encode_registry(registry: Registry) -> dict[str, Any]:
    """The registry as {"batches": [[kind, payload], ...], "domains": column, "ops": column}.

    A column is a run of entry numbers packed as unsigned 32-bit ints (`bytes`: read back in one piece). A batch's
    payload is its leaf values (kind LEAF), the formulas' texts (FORMULA), one column per field (a record kind),
    [parts, lengths] (TUPLE: every tuple's parts in one column, and how many each has) or [keys, values, lengths]
    (MAP).
    """
    interner = _Interner()
    domains = [interner.add(d) for d in registry.domains.values()]
    ops = [interner.add(registry.ops[key]) for key in registry.ops]
    entries, children = interner.entries, interner.children
    kinds = [entry[0] if isinstance(entry, list) else LEAF for entry in entries]
    depth = [0] * len(entries)
    for i, parts in enumerate(children):  # children come first, so their depth is known
        depth[i] = 1 + max((depth[c] for c in parts), default=-1)
    order = sorted(range(len(entries)), key=lambda i: (depth[i], kinds[i]))
    number = {old: new for new, old in enumerate(order)}
    batches: list[list[Any]] = []
    last: tuple[int, int] | None = None
    for i in order:
        if (depth[i], kinds[i]) != last:
            last = (depth[i], kinds[i])
            batches.append([kinds[i], _empty_payload(kinds[i])])
        _add(batches[-1][1], kinds[i], entries[i], entries, number)
    for batch in batches:
        if batch[0] != LEAF and batch[0] != FORMULA:
            batch[1] = [_pack(column) for column in batch[1]]
    return {"batches": batches, "domains": _pack([number[i] for i in domains]),
            "ops": _pack([number[i] for i in ops])}


def _pack(column: list[int]) -> bytes:
    return array(_INT, column).tobytes()


def _empty_payload(kind: int) -> list[Any]:
    if kind == TUPLE:
        return [[], []]
    if kind == MAP:
        return [[], [], []]
    return [[] for _ in _FIELDS[kind - RECORD_KINDS]] if kind >= RECORD_KINDS else []


def _add(payload: list[Any], kind: int, entry: Entry, entries: list[Entry], number: Mapping[int, int]) -> None:
    if kind == LEAF:
        payload.append(entry)
    elif kind == FORMULA:
        payload.append(entries[entry[1][0]])  # the text itself
    elif kind == TUPLE:
        payload[0].extend(number[c] for c in entry[1])
        payload[1].append(len(entry[1]))
    elif kind == MAP:
        payload[0].extend(number[c] for c in entry[1][0::2])
        payload[1].extend(number[c] for c in entry[1][1::2])
        payload[2].append(len(entry[1]) // 2)
    else:
        for column, part in zip(payload, entry[1], strict=True):
            column.append(number[part])


def decode_registry(tables: Any) -> Registry:
    """The registry `encode_registry` wrote, every op built; TableError when the tables do not decode."""
    try:
        values = _decode(tables["batches"])
        domains = [values[i] for i in _column(tables["domains"])]
        ops = [values[i] for i in _column(tables["ops"])]
    except (IndexError, TypeError, KeyError, ValueError) as e:
        raise TableError(f"{type(e).__name__}: {e}") from None
    if not all(type(d) is Domain for d in domains) or not all(type(op) is OpSchema for op in ops):
        raise TableError("a root entry is not a domain or an op")
    return Registry(domains={d.name: d for d in domains}, ops=OpTable({(op.domain, op.name): op for op in ops}))


def _decode(batches: list[list[Any]]) -> list[Any]:
    values: list[Any] = []
    get = values.__getitem__
    for kind, payload in batches:
        if kind == LEAF:
            if not set(map(type, payload)) <= _LEAF_TYPES:
                raise TableError("a leaf is not plain data")
            values.extend(payload)
        elif kind == FORMULA:
            if not set(map(type, payload)) <= {str}:
                raise TableError("a formula's text is not a string")
            values.extend(map(Formula.checked, payload))
        else:
            columns = [_column(c) for c in payload]
            _check_parts(columns if kind >= RECORD_KINDS else columns[:-1], len(values))  # the last: lengths
            if kind == TUPLE:
                parts, lengths = _counted(columns, 1)
                values.extend(map(tuple, map(islice, repeat(map(get, parts)), lengths)))
            elif kind == MAP:
                keys, items, lengths = _counted(columns, 2)
                key_parts, item_parts = map(get, keys), map(get, items)
                values.extend(adopt_dicts(map(dict, map(zip, map(islice, repeat(key_parts), lengths),
                                                        map(islice, repeat(item_parts), lengths)))))
            else:
                values.extend(_records(_RECORD_OF_KIND[kind], columns, get))
    return values


def _column(packed: bytes) -> memoryview:
    if type(packed) is not bytes:
        raise TableError("a column is not packed")
    return memoryview(packed).cast(_INT)


def _counted(columns: list[memoryview], parts: int) -> list[memoryview]:
    """A tuple or map batch's columns, checked: `parts` part columns, each as long as the lengths add up to."""
    if len(columns) != parts + 1 or any(len(c) != sum(columns[-1]) for c in columns[:-1]):
        raise TableError("a batch's lengths do not match its parts")
    return columns


def _records(cls: type[Any], columns: list[memoryview], get: Callable[[int], Any]) -> list[Any]:
    """A batch of records, one column of part numbers per field.

    Each record is made blank with `object.__new__` and each field set through its slot's descriptor, a column at a
    time, all inside `map`: four times faster than calling the generated `__init__` per record, and what that
    `__init__` does (records are slotted dataclasses whose `__init__` only sets fields; every field is set, and
    `_check_record_classes` holds the rest).
    """
    setters = _SETTERS[cls]
    if len(columns) != len(setters) or len(set(map(len, columns))) != 1:
        raise TableError(f"a batch of {cls.__name__} has ragged or missing fields")
    records = list(map(object.__new__, repeat(cls, len(columns[0]))))
    for setter, column in zip(setters, columns, strict=True):
        deque(map(setter, records, map(get, column)), 0)
    return records


def _check_parts(columns: list[memoryview], built: int) -> None:
    """Every part names an entry of an earlier batch (unsigned, so never negative)."""
    for column in columns:
        if len(column) and max(column) >= built:
            raise TableError("a part does not name an entry of an earlier batch")


_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})
_RECORD_OF_KIND: dict[int, type[Any]] = {kind: cls for cls, kind in _KIND_OF.items()}
_SETTERS: dict[type[Any], tuple[Callable[[Any, Any], None], ...]] = {
    cls: tuple(cls.__dict__[name].__set__ for name in fields) for cls, fields in zip(RECORDS, _FIELDS, strict=True)}


def _check_record_classes() -> None:
    """What `_records` relies on: every record is a slotted dataclass whose fields are exactly its slots, built by
    the dataclass `__init__` alone."""
    for cls, fields in zip(RECORDS, _FIELDS, strict=True):
        new: Any = cls.__new__
        if set(cls.__slots__) != set(fields) or hasattr(cls, "__post_init__") or new is not object.__new__:
            raise TypeError(f"opset.record_table cannot rebuild {cls.__name__} field by field")


_check_record_classes()
