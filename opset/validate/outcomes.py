"""Clean node outcomes by node signature, kept for the life of the registry's version table, so across
`check_model` calls (`run.kept_outcomes`). A node whose signature (`run._signature`: version, attributes, input
facts and read values, declared outputs) was checked clean before, in this model or an earlier one, replays what
that check wrote instead of being checked again. The signature holds everything a clean check depends on and no
name, so the replay is the check's result; only checks that reported nothing and drew no fresh dim are kept (a
diagnostic names its node, a fresh dim its run), and `tests/validate/test_fast_path.py` compares the replayed path
with the plain one model after model.

The same bounded store keeps what validation read, by the bytes it read it from: node records
(`graph.read_node`), declarations (`facts.kept_value_info`), small initializers (`tensors.kept_initializer`).

Bounded: at `LIMIT` entries a store starts afresh (a process validating endless distinct models keeps at most
that many). A signature holds a node's attributes by their bytes, or by a digest of them when they are long
(`graph.DIGESTED_ATTRIBUTE_BYTES`: a Constant's tensor, a tree ensemble's lists), so each entry stays small.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar
from weakref import WeakValueDictionary

Outcome = TypeVar("Outcome")


class Outcomes(dict[Hashable, Outcome]):
    """A dict (its `get` is the hot path's, in C) that starts afresh when it reaches `LIMIT` entries. Every store
    is known to `forget_all`."""

    LIMIT = 20_000  # about 20 MB at most (a signature and its outcome: a few hundred bytes to 1 KB)

    def __init__(self) -> None:
        super().__init__()
        _STORES[id(self)] = self

    def put(self, key: Hashable, outcome: Outcome) -> None:
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = outcome


_STORES: WeakValueDictionary[int, Outcomes[Any]] = WeakValueDictionary()  # by id: a dict is not hashable


def forget_all() -> None:
    """Empty every store: what validation kept of outcomes and of what it read."""
    for store in list(_STORES.values()):
        store.clear()
