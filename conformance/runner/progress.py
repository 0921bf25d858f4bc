"""The progress of a `conform` run over cells, drawn by the `conform` process from the events pytest writes.

The count comes from collection (`events.COLLECTION`, after `--shard` and `--opset`); a cell is done when all its
tests have finished (`events.EVENTS`), so it works the same with one process or xdist's `-n 2`. On a terminal it is
a rich progress bar, with each failing cell named above it as soon as it is done; elsewhere (a CI log, a file) a
plain line every tenth of the cells or every 30 seconds.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from conformance.runner.events import EVENTS, read_collection

POLL_SECONDS = 0.2
PLAIN_EVERY_SECONDS = 30.0


@dataclass
class CellTally:
    """Tests finished per cell against the tests collection gave it; which cells are done and failed."""

    expected: dict[str, int] | None = None
    finished: dict[str, int] = field(default_factory=dict)
    done: int = 0
    failed: int = 0

    @property
    def total(self) -> int | None:
        return None if self.expected is None else len(self.expected)

    def finish_test(self, label: str, status: str | None) -> bool:
        """Count one finished test of `label`; True when it was the cell's last and the cell failed."""
        self.finished[label] = self.finished.get(label, 0) + 1
        if self.expected is None or self.finished[label] != self.expected.get(label):
            return False
        self.done += 1
        self.failed += status == "fail"
        return status == "fail"


class Display(Protocol):
    def collected(self, total: int) -> None: ...

    def advance(self, tally: CellTally) -> None: ...

    def cell_failed(self, label: str) -> None: ...

    def stop(self) -> None: ...


class BarDisplay:
    """A rich progress bar on a terminal; failing cells are printed above it."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("cells, {task.fields[failed]} failed"), TimeElapsedColumn(),
                                 console=console, transient=True)
        self.task: TaskID = self.progress.add_task("collecting", total=None, failed=0)
        self.progress.start()

    def collected(self, total: int) -> None:
        self.progress.update(self.task, description="conform", total=total)

    def advance(self, tally: CellTally) -> None:
        self.progress.update(self.task, completed=tally.done, failed=tally.failed)

    def cell_failed(self, label: str) -> None:
        self.progress.console.print(f"failed: {label}", markup=False, highlight=False)

    def stop(self) -> None:
        self.progress.stop()


class LineDisplay:
    """Plain lines for a log: one every tenth of the cells or every 30 seconds, whichever comes first."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.started = time.monotonic()
        self.last_line = self.started
        self.total = 0
        self.shown_tenth = 0

    def collected(self, total: int) -> None:
        self.total = total
        self._print(f"conform: {total} cells to run")

    def advance(self, tally: CellTally) -> None:
        if not self.total:
            return
        tenth = tally.done * 10 // self.total
        now = time.monotonic()
        if tenth > self.shown_tenth or now - self.last_line >= PLAIN_EVERY_SECONDS:
            self.shown_tenth = tenth
            self._print(f"conform: {tally.done}/{self.total} cells ({100 * tally.done // self.total}%), "
                        f"{tally.failed} failed, {now - self.started:.0f} s")

    def cell_failed(self, label: str) -> None:
        pass  # the lines count them; the summary names them once, with their replay command

    def stop(self) -> None:
        pass

    def _print(self, text: str) -> None:
        self.last_line = time.monotonic()
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)


class EventReader:
    """Reads the lines `events.EventWriter` appends, a whole line at a time."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / EVENTS
        self.offset = 0
        self.pending = ""

    def new_events(self) -> list[dict[str, str | None]]:
        if not self.path.is_file():
            return []
        with self.path.open(encoding="utf-8") as f:
            f.seek(self.offset)
            chunk = f.read()
            self.offset = f.tell()
        lines = (self.pending + chunk).split("\n")
        self.pending = lines.pop()  # an unfinished last line waits for its end
        return [json.loads(line) for line in lines if line]


def follow(process: subprocess.Popen[bytes], folder: Path, console: Console) -> int:
    """Draw the run's progress until `process` (pytest) exits; its exit status."""
    display: Display = BarDisplay(console) if console.is_terminal else LineDisplay(console)
    tally = CellTally()
    reader = EventReader(folder)
    try:
        while True:
            code = process.poll()
            _update(tally, reader, folder, display)
            if code is not None:
                return code
            time.sleep(POLL_SECONDS)
    finally:
        display.stop()


def _update(tally: CellTally, reader: EventReader, folder: Path, display: Display) -> None:
    if tally.expected is None:
        tally.expected = read_collection(folder)
        if tally.expected is None:
            return
        display.collected(len(tally.expected))
    for event in reader.new_events():
        label = str(event["cell"])
        if tally.finish_test(label, event.get("status")):
            display.cell_failed(label)
    display.advance(tally)
