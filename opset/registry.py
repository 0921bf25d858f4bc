"""The loaded registry and the one resolution rule used everywhere.

For an opset import (domain, N) an op resolves to its newest version with `since <= N`, unless the
op was removed at or before N; an op a domain does not define resolves through the domain it
extends, at the opset it extends it at.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from opset.errors import ResolutionError
from opset.frozen import Record
from opset.model import Domain, OpSchema, OpVersion

OpKey = tuple[str, str]  # (domain, name)


class OpTable(Mapping[OpKey, OpSchema]):
    """Ops by (domain, name), in key order; every op is built when the registry loads (a cache hit decodes them all
    from `opset.record_table`'s tables, faster than building any lazily)."""

    def __init__(self, ops: Mapping[OpKey, OpSchema]) -> None:
        self._ops = dict(sorted(ops.items()))
        self._version_count = sum(len(op.versions) for op in self._ops.values())

    def __getitem__(self, key: OpKey) -> OpSchema:
        return self._ops[key]

    def __contains__(self, key: object) -> bool:
        return key in self._ops

    def __iter__(self) -> Iterator[OpKey]:
        return iter(self._ops)

    def __len__(self) -> int:
        return len(self._ops)

    def version_count(self) -> int:
        return self._version_count


@dataclass(frozen=True, eq=False, repr=False)
class Registry(Record):
    """Every domain and op of a registry (`opset.load.load_registry`), and the resolution rule over them."""

    domains: dict[str, Domain]
    ops: OpTable

    def __len__(self) -> int:
        """The number of op versions (comparable with onnx's schema-with-history count)."""
        return self.ops.version_count()

    def __iter__(self) -> Iterator[OpSchema]:
        return iter(self.ops.values())

    def canonical_domain(self, domain: str) -> str:
        """A node's domain string (`""`, an alias) or a registry name -> the registry's domain name."""
        if domain in self.domains:
            return domain
        for d in self.domains.values():
            if d.spelled_by(domain):
                return d.name
        raise ResolutionError(f"unknown domain '{domain}'")

    def node_domain(self, domain: str) -> str:
        """The domain string nodes and opset imports carry for a registry domain (`ai.onnx` -> `""`)."""
        return self.domains[self.canonical_domain(domain)].node_domain

    def op(self, domain: str, name: str) -> OpSchema:
        key = (self.canonical_domain(domain), name)
        if key not in self.ops:
            raise ResolutionError(f"no op {name} in domain {key[0]}")
        return self.ops[key]

    def resolve(self, domain: str, name: str, opset: int) -> OpVersion:
        """The version of `name` that opset `opset` of `domain` contains (following domain extension)."""
        found = self.try_resolve(domain, name, opset)
        if found is None:
            d = self.canonical_domain(domain)
            op = self.ops.get((d, name))
            if op is not None and op.status.state == "removed":
                at = op.status.removed_at_opset
                when = f"at opset {at}" if at else f"in release {op.status.removed_in or '?'}"
                repl = f"; use {op.status.replacement}" if op.status.replacement else ""
                raise ResolutionError(f"{d}::{name} was removed {when}{repl}")
            raise ResolutionError(f"{name} is not in opset {opset} of {d}")
        return found

    def try_resolve(self, domain: str, name: str, opset: int) -> OpVersion | None:
        d = self.canonical_domain(domain)
        op = self.ops.get((d, name))
        if op is not None:
            return _newest_version(op, opset)
        extends = self.domains[d].extends
        if extends is not None:
            return self.try_resolve(extends[0], name, extends[1])
        return None

    def opset_contents(self, domain: str, opset: int) -> list[OpVersion]:
        """Every op version opset `opset` of `domain` contains, by op name (inherited ops included)."""
        d = self.canonical_domain(domain)
        names = {name for (dom, name) in self.ops if dom == d}
        extends = self.domains[d].extends
        if extends is not None:
            names |= {v.name for v in self.opset_contents(extends[0], extends[1])}
        found = (self.try_resolve(d, n, opset) for n in sorted(names))
        return [v for v in found if v is not None]

    def all_versions(self) -> Iterator[OpVersion]:
        for op in self.ops.values():
            yield from op.versions


def _newest_version(op: OpSchema, opset: int) -> OpVersion | None:
    status = op.status
    if status.state == "removed" and (status.removed_at_opset is None or opset >= status.removed_at_opset):
        return None
    best = None
    for v in op.versions:
        if v.since <= opset:
            best = v
    return best
