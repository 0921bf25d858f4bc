"""Clean node outcomes by node signature, kept for the life of the registry's version table, so across
`check_model` calls (`run.kept_outcomes`). A node whose signature (`run._signature`: version, attribute bytes, input
facts and read values, declared outputs) was checked clean before, in this model or an earlier one, replays what
that check wrote instead of being checked again. The signature holds everything a clean check depends on and no
name, so the replay is the check's result; only checks that reported nothing and drew no fresh dim are kept (a
diagnostic names its node, a fresh dim its run), and `tests/validate/test_fast_path.py` compares the replayed path
with the plain one model after model.

Bounded: at `LIMIT` signatures the store starts afresh (a process validating endless distinct models keeps at most
that many). A node whose attributes hold more than `run.KEPT_TENSOR_BYTES` (a Constant's tensor) is kept only
within its own run: its signature holds those bytes.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

Outcome = TypeVar("Outcome")


class Outcomes(Generic[Outcome]):
    LIMIT = 20_000  # about 20 MB at most (a signature and its outcome: a few hundred bytes to 1 KB)

    __slots__ = ("_done",)

    def __init__(self) -> None:
        self._done: dict[Hashable, Outcome] = {}

    def get(self, key: Hashable) -> Outcome | None:
        return self._done.get(key)

    def put(self, key: Hashable, outcome: Outcome) -> None:
        if len(self._done) >= self.LIMIT:
            self._done = {}
        self._done[key] = outcome

    def clear(self) -> None:
        self._done = {}

    def __len__(self) -> int:
        return len(self._done)
