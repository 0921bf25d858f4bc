"""`conform -n N`: N worker processes run cells, each with its own backend, and send back their `CellRun`s.

Each worker gets the run's `RunConfig` once and then one `CellTask` at a time, the next as soon as it answers, so a
slow cell holds up one worker only. A worker ignores Ctrl-C (the terminal sends it to the whole process group:
conform itself decides), ends its isolation worker when told to stop (SIGTERM) and dies with conform should conform
be killed (`worker.die_with_parent`). A worker that dies while running a cell fails that cell with the reason, and
a fresh one takes its place.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from types import FrameType
from typing import Any

from conformance.runner.config import RunConfig
from conformance.runner.plan import CellTask

STOP_GRACE = 3.0  # seconds a worker has to end its backend after SIGTERM before it is killed
POLL = 0.5  # seconds between two looks at the workers when none answers (signals are taken meanwhile)


def _stop_worker(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _work(conn: Connection, config: RunConfig, env: Mapping[str, str]) -> None:
    """A worker's life: run the cells it is sent until it is sent None or conform goes away."""
    from conformance.runner.worker import die_with_parent

    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)
    os.environ.update(env)
    from conformance.runner.core import CellRunner

    runner = CellRunner(config)
    try:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            conn.send(runner.run(task))
    finally:
        runner.close()


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: CellTask | None = None


class WorkerPool:
    """`size` worker processes for one run (`env`: variables they need, such as the registry snapshot's path)."""

    def __init__(self, config: RunConfig, size: int, env: Mapping[str, str]) -> None:
        self.config = config
        self.size = size
        self.env = dict(env)
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        # not a daemon: a daemonic process may not start children, and a worker starts its backend's isolation
        # worker; it dies with conform all the same (`die_with_parent`), and conform ends it in close()
        process = self._context.Process(target=_work, args=(child, self.config, self.env), daemon=False)
        process.start()
        child.close()
        worker = _Worker(process, parent)
        self._workers.append(worker)
        return worker

    def run(self, tasks: Iterable[CellTask]) -> Iterator[Any]:
        """Each task's `CellRun` (a lost cell's too, as a failure), in the order they finish."""
        from conformance.runner.core import lost_cell

        pending = deque(tasks)
        for _ in range(min(self.size, len(pending))):
            self._give(self._start(), pending)
        while any(w.task is not None for w in self._workers):
            busy = [w for w in self._workers if w.task is not None]
            ready = wait([w.conn for w in busy], timeout=POLL)
            for worker in (w for w in busy if w.conn in ready):
                task = worker.task
                if task is None:  # pragma: no cover - a busy worker has its task
                    continue
                try:
                    answer = worker.conn.recv()
                except (EOFError, OSError):
                    worker.process.join(timeout=1)
                    yield lost_cell(task, _how_it_ended(worker.process.exitcode))
                    self._drop(worker)
                    if pending:
                        self._give(self._start(), pending)
                    continue
                worker.task = None
                yield answer
                self._give(worker, pending)

    def _give(self, worker: _Worker, pending: deque[CellTask]) -> None:
        if pending:
            worker.task = pending.popleft()
            worker.conn.send(worker.task)

    def _drop(self, worker: _Worker) -> None:
        worker.conn.close()
        self._workers.remove(worker)

    def close(self) -> None:
        """End every worker: asked to stop (they end their backends), killed after STOP_GRACE seconds."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.terminate()  # SIGTERM: SystemExit in the worker, its backend's process ended
        deadline = time.monotonic() + STOP_GRACE
        for worker in self._workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)
            worker.conn.close()
        self._workers.clear()

    def finish(self) -> None:
        """Tell idle workers the run is over and wait for them (then end any that do not go)."""
        for worker in self._workers:
            try:
                worker.conn.send(None)
            except (BrokenPipeError, OSError):
                pass  # it is gone already
        deadline = time.monotonic() + STOP_GRACE
        for worker in self._workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
        self.close()


def _how_it_ended(code: int | None) -> str:
    if isinstance(code, int) and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
