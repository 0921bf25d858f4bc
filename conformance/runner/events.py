"""What a pytest run of conformance modules tells the `conform` process that started it, through a folder.

    <events>/collection.json   {"cells": {cell label: tests}}: what collection kept (after --shard and --opset),
                               written by whichever process collects (each xdist worker writes the same content)
    <events>/events.jsonl      one line {"cell": label, "status": the cell's status so far} per finished test,
                               appended by the controlling process only (with or without xdist)

`conformance.runner.progress` reads them to draw its progress over cells; pytest's own output is then free to go
to a log.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import pytest

COLLECTION = "collection.json"
EVENTS = "events.jsonl"


def write_collection(folder: Path, tests_per_cell: Mapping[str, int]) -> None:
    """Write what collection kept, atomically (xdist workers write the same file at about the same time)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".collection-", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"cells": dict(tests_per_cell)}, f)
    os.replace(tmp, folder / COLLECTION)


def read_collection(folder: Path) -> dict[str, int] | None:
    """The tests per cell collection kept, None until a collecting process wrote them."""
    path = folder / COLLECTION
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(k): int(v) for k, v in data["cells"].items()}


class EventWriter:
    """A pytest plugin of the controlling process: one line per finished test of a cell, with the cell's status so
    far as `cell_status` of the report gives it (it runs after the report recorded the test)."""

    def __init__(self, folder: Path, cells: Mapping[str, Any]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.cells = cells  # the report's cells, a live view: label -> entry with "status"
        self.stream: IO[str] = (folder / EVENTS).open("a", encoding="utf-8")

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":  # every test ends with a teardown report, whatever happened before
            return
        cell = dict(report.user_properties).get("conform_cell")
        if cell is None:
            return
        from conformance.runner.report import cell_key

        label = cell_key(*json.loads(str(cell)))
        status = self.cells.get(label, {}).get("status")
        self.stream.write(json.dumps({"cell": label, "status": status}) + "\n")
        self.stream.flush()

    def pytest_unconfigure(self) -> None:
        self.stream.close()
