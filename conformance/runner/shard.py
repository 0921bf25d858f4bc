"""`conform --shard K/N`: which cells the K-th of N jobs runs.

A cell goes to the shard its label's SHA-256 names (`ai.onnx@11::Conv[float]`), never to a position in collection
order: every job of a CI matrix, whatever it collects and however many xdist workers it has, puts a cell in the same
shard, and a cell added to the registry moves no other cell. `conform merge` puts the N reports back together.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_SPEC = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


class ShardError(ValueError):
    """A shard spec that is not `K/N` with 1 <= K <= N."""


@dataclass(frozen=True, slots=True)
class Shard:
    index: int  # K, from 1
    count: int  # N

    @staticmethod
    def from_spec(text: str) -> Shard:
        """`K/N` (1 <= K <= N) as a Shard; ShardError with a one-line reason otherwise."""
        match = _SPEC.fullmatch(text)
        if match is None:
            raise ShardError(f"--shard takes K/N (the K-th of N jobs, e.g. 2/3), not '{text}'")
        index, count = int(match.group(1)), int(match.group(2))
        if count < 1:
            raise ShardError(f"--shard {text}: N must be at least 1")
        if not 1 <= index <= count:
            raise ShardError(f"--shard {text}: K counts from 1 to N={count}")
        return Shard(index, count)

    def holds(self, label: str) -> bool:
        """Whether the cell `label` belongs to this shard."""
        return shard_of(label, self.count) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_of(label: str, count: int) -> int:
    """The shard (1..count) of the cell `label`: a stable hash of the label, the same in every process and run."""
    digest = hashlib.sha256(label.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1
