"""Read `conform --report` JSON files into support matrices for the docs.

A report is one JSON object:

    {"backend": "onnxruntime",
     "records": [{"domain": "ai.onnx", "op": "Relu", "version": 14, "dtype": "float32",
                  "status": "pass", ...}, ...]}

`results` (a list) or `cells` (a mapping of cell name to record, as `conform --report` writes it)
is accepted in place of `records`; of the other keys the runner adds, `messages` gives a failing cell's first
message (what differs), a record's `examples` and the report's `complete` the run's breadth (a report may cover a
few ops only: the pages say how many cells it has and how many examples a cell checked), the rest (timings, repro
paths on the machine that ran it) are ignored. A missing folder
or no report gives no support pages; a file that is not such a report is an error naming the file and the record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATUSES = ("pass", "fail", "unsupported", "xfail", "xpass", "ambiguous")  # conform's cell statuses
RECORD_KEYS = ("domain", "op", "version", "dtype", "status")


class ReportError(Exception):
    """A report file that cannot be read as a conform report."""


@dataclass(frozen=True, slots=True)
class Record:
    domain: str
    op: str
    version: int
    dtype: str
    status: str
    message: str = ""  # the first message of a failing cell, without the exception's name and the repro path
    examples: int = 0  # the cases the cell checked (the report's `examples`; 0 where it gives none)


@dataclass(frozen=True, slots=True)
class Report:
    backend: str
    file: str
    records: tuple[Record, ...]
    complete: bool = True  # False: the run stopped before every cell it selected had finished

    def breadth(self) -> tuple[int, int, int]:
        """What the run covered: (op versions, cells, the most examples one cell checked)."""
        versions = {(r.domain, r.op, r.version) for r in self.records}
        return len(versions), len(self.records), max((r.examples for r in self.records), default=0)

    def dtypes(self) -> list[str]:
        return sorted({r.dtype for r in self.records})

    def cells(self) -> dict[tuple[str, str, int], dict[str, str]]:
        """(domain, op, version) -> dtype -> status; a repeated cell keeps its worst status."""
        table: dict[tuple[str, str, int], dict[str, str]] = {}
        for r in self.records:
            row = table.setdefault((r.domain, r.op, r.version), {})
            row[r.dtype] = _worse(row.get(r.dtype), r.status)
        return dict(sorted(table.items()))

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for r in self.records if r.status == s) for s in STATUSES}


def read_reports(folder: Path | None) -> list[Report]:
    """Every `*.json` report in `folder`, by backend name; [] when the folder does not exist."""
    if folder is None or not folder.is_dir():
        return []
    reports = [read_report(path) for path in sorted(folder.glob("*.json"))]
    seen: dict[str, str] = {}
    for report in reports:
        if report.backend in seen:
            raise ReportError(f"{report.file}: backend '{report.backend}' is also reported by {seen[report.backend]}")
        seen[report.backend] = report.file
    return sorted(reports, key=lambda r: r.backend)


def read_report(path: Path) -> Report:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}: cannot read: {e}") from e
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}:{e.lineno}: not JSON: {e.msg}") from e
    if not isinstance(data, dict):
        raise ReportError(f"{path}: a report is a JSON object with 'backend' and 'records'")
    backend = data.get("backend")
    if not isinstance(backend, str) or not backend:
        raise ReportError(f"{path}: 'backend' must be a non-empty string")
    records = data.get("records", data.get("results"))
    if records is None and isinstance(data.get("cells"), dict):  # the report `conform --report` writes
        records = list(data["cells"].values())
    if not isinstance(records, list):
        raise ReportError(f"{path}: 'records' must be a list")
    # the file's name, not its path: the page must not depend on where the checkout lives
    complete = data.get("complete", True)
    if not isinstance(complete, bool):
        raise ReportError(f"{path}: 'complete' must be true or false, not {complete!r}")
    return Report(backend=backend, file=path.name, records=tuple(_records(path, records)), complete=complete)


def _records(path: Path, items: Iterable[Any]) -> Iterable[Record]:
    for index, item in enumerate(items):
        where = f"{path}: record {index}"
        if not isinstance(item, dict):
            raise ReportError(f"{where}: must be an object")
        missing = [k for k in RECORD_KEYS if k not in item]
        if missing:
            raise ReportError(f"{where}: missing {', '.join(repr(k) for k in missing)}")
        version = item["version"]
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ReportError(f"{where}: 'version' must be a positive integer, not {version!r}")
        if item["status"] not in STATUSES:
            raise ReportError(f"{where}: 'status' {item['status']!r} is not one of {', '.join(STATUSES)}")
        for key in ("domain", "op", "dtype"):
            if not isinstance(item[key], str) or not item[key]:
                raise ReportError(f"{where}: '{key}' must be a non-empty string")
        examples = item.get("examples", 0)
        if not isinstance(examples, int) or isinstance(examples, bool) or examples < 0:
            raise ReportError(f"{where}: 'examples' must be a count, not {examples!r}")
        yield Record(item["domain"], item["op"], version, item["dtype"], item["status"], _message(item), examples)


MESSAGE_CHARS = 400  # a failure's message as the backend page shows it, cut past this


def _message(item: dict[str, Any]) -> str:
    """A cell's first message, as a reader wants it: no exception class, no cell label, no machine path."""
    messages = item.get("messages")
    if not isinstance(messages, list) or not messages or not isinstance(messages[0], str):
        return ""
    text = " ".join(messages[0].split())
    text = _EXCEPTION_PREFIX.sub("", text, count=1)
    text = _CELL_PREFIX.sub("", text, count=1)
    text = text.split(" | repro: ", 1)[0].split(" | replay: ", 1)[0]
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS - 3] + "..."


_EXCEPTION_PREFIX = re.compile(r"^[A-Za-z_][\w.]*(Error|Failure|Exception): ")
_CELL_PREFIX = re.compile(r"^[\w.]+@\d+::[\w.]+\[[^\]]*\]: ")


# a cell seen twice (several cases per dtype) shows the most alarming outcome
_SEVERITY = {"fail": 5, "xpass": 4, "ambiguous": 3, "unsupported": 2, "xfail": 1, "pass": 0}


def _worse(current: str | None, new: str) -> str:
    if current is None or _SEVERITY[new] > _SEVERITY[current]:
        return new
    return current
