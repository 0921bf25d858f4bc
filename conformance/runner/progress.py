"""The progress of a `conform` run over cells, drawn as each cell's result arrives.

On a terminal it is a rich progress bar, with each failing cell named above it as soon as it is done; elsewhere (a
CI log, a file) a plain line every tenth of the cells or every 30 seconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

PLAIN_EVERY_SECONDS = 30.0


@dataclass
class CellTally:
    """Cells done and failed so far."""

    total: int = 0
    done: int = 0
    failed: int = 0

    def finish_cell(self, status: str) -> None:
        self.done += 1
        self.failed += status == "fail"


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


def open_display(console: Console) -> Display:
    """A bar on a terminal, plain lines elsewhere."""
    return BarDisplay(console) if console.is_terminal else LineDisplay(console)
