"""A committed report refreshed in part: the cells of a selection (op globs and domains, as conform's `--op` and
`--domain` take them) run again and put in place of the report's cells of that selection, every other cell kept.

A whole-registry report of a slow backend takes hours on 2 cores; an op whose kernel, YAML or expectations changed,
or a domain added to the registry, takes minutes. The report says so: `refreshed` lists each partial run (its
selection, when it ran, how many cells), so a reader knows which cells are newer than `started`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.runner.config import in_selection
from conformance.runner.report import RunReport


class RefreshError(ValueError):
    """A partial run that cannot refresh the report: the message says why."""


def refreshed(base: RunReport, part: RunReport, ops: Sequence[str], domains: Sequence[str]) -> RunReport:
    """`base` with its cells of the selection replaced by `part`'s (a run of exactly that selection)."""
    if not ops and not domains:
        raise RefreshError("a refresh needs a selection (--op, --domain): without one, regenerate the whole report")
    if base.backend != part.backend:
        raise RefreshError(f"the report tests {base.backend}, the new run {part.backend}")
    if (base.constant_inputs or "none") != (part.constant_inputs or "none"):  # reports before the key: none
        raise RefreshError(f"the report fed {base.constant_inputs or 'no'} inputs as constants, the new run "
                           f"{part.constant_inputs or 'none'}")
    if not part.complete:
        raise RefreshError(f"the new run of the selection is incomplete ({part.stopped or 'cells missing'})")
    stray = sorted(k for k, c in part.cells.items() if not in_selection(c.domain, c.op, ops, domains))
    if stray:
        raise RefreshError(f"the new run has cells outside the selection: {', '.join(stray[:3])}")
    kept = {k: c for k, c in base.cells.items() if not in_selection(c.domain, c.op, ops, domains)}
    dropped = len(base.cells) - len(kept)
    note: dict[str, Any] = {"op": list(ops), "domain": list(domains), "started": part.started,
                            "finished": part.finished, "cells": len(part.cells), "replaced": dropped}
    unmatched = [e for e in base.unmatched_expectations if e not in part.unmatched_expectations]
    return RunReport(backend=base.backend, started=base.started, cells=dict(sorted({**kept, **part.cells}.items())),
                     complete=base.complete, finished=base.finished, shard=None,
                     planned=None if base.planned is None or part.planned is None
                     else base.planned - dropped + part.planned,
                     stopped=base.stopped, unmatched_expectations=unmatched + part.unmatched_expectations,
                     expectations=base.expectations, constant_inputs=part.constant_inputs,
                     refreshed=[*base.refreshed, note])
