"""SIGINT and SIGTERM stop a command the same way: an `Interrupted` raised where the command is, whatever it waits on.

`Interrupted` is a KeyboardInterrupt, so Hypothesis, numpy and the standard library let it through as they let
Ctrl-C through; the command's own `except Interrupted` ends every child it started, writes what it has (marked
incomplete) and exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). Once the first signal is
taken, later ones are ignored until the command has cleaned up: a second Ctrl-C must not cut the cleanup short.

Python cannot deliver an exception raised where it is "unraisable" (a garbage-collector callback, a `__del__`, a
weakref finalizer): it prints "Exception ignored in ..." with a traceback and goes on. A signal that lands there
would be lost, and so would one that a library catches (pytest's own unraisable hook in an in-process cell). So the
handler keeps the `Interrupted` it raises, `sys.unraisablehook` keeps such an exception silently, and the command
raises it again at its next safe point (`interrupt_if_pending`, between two cells and before it returns).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A stopping signal arrived; `signum` is which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


_pending: list[Interrupted] = []  # an Interrupted that Python could not raise where the signal landed


def interrupt_if_pending() -> None:
    """Raise the `Interrupted` that an unraisable context swallowed, if one did (a no-op otherwise)."""
    if _pending:
        raise _pending.pop()


def exit_code(error: KeyboardInterrupt) -> int:
    """130 for Ctrl-C (a plain KeyboardInterrupt), 128 + the signal for an `Interrupted`."""
    return error.exit_code if isinstance(error, Interrupted) else 128 + signal.SIGINT


def signal_name(error: KeyboardInterrupt) -> str:
    return error.name if isinstance(error, Interrupted) else "SIGINT"


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise `Interrupted` (in the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[signal.Signals, Any] = {s: signal.getsignal(s) for s in STOPPING_SIGNALS}

    def stop(signum: int, frame: FrameType | None) -> None:
        for s in STOPPING_SIGNALS:  # the cleanup that follows runs to its end
            signal.signal(s, signal.SIG_IGN)
        stopped = Interrupted(signum)
        _pending[:] = [stopped]  # kept even where something swallows the raise (pytest's own unraisable hook)
        raise stopped

    previous_hook = sys.unraisablehook

    def keep_interrupted(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, Interrupted):
            _pending[:] = [unraisable.exc_value]
        else:
            previous_hook(unraisable)

    sys.unraisablehook = keep_interrupted
    for s in STOPPING_SIGNALS:
        signal.signal(s, stop)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sys.unraisablehook = previous_hook
        _pending.clear()
