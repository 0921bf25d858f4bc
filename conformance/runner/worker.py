"""Isolation: a backend's calls run in a persistent child process, restarted after a crash or a hang.

The parent sends a BackendCall over a pipe and waits at most `timeout` seconds. A child that dies (segfault, abort,
os._exit) or does not answer in time becomes a BackendCrash / BackendTimeout for that case only; the next call starts
a fresh child.

A crash is not always the dying case's fault: a backend that corrupted its memory on one case may die on a later
one. After a crash the parent runs the case alone in a fresh child; when it passes there, it runs each of the
`TRIAGE_CASES` cases before it, one at a time, followed by the case, each pair in a fresh child: the first pair that
crashes names the earlier case (`BackendCrash.culprit`), whose repro bundle then replays both. When none does, the
message says the crash does not reproduce alone. The verdict is kept for the case, so running it again (Hypothesis
replays a failing example) gives the same answer.

The child checks an answer before shipping it: an output whose shape differs from the one the parent expects and
that is larger than `SHIP_LIMIT` bytes stays in the child, described by an `Unshipped` (a backend answering with
half a gigabyte would otherwise spend seconds per case in the pipe).
"""

from __future__ import annotations

import ctypes
import hashlib
import multiprocessing
import pickle
import signal
import sys
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from conformance.backends.protocol import BackendCall, Unsupported
from conformance.runner.messages import exception_text

STARTUP_TIMEOUT = 120.0  # importing a backend (onnxruntime, torch ...) can take a while
TRIAGE_CASES = 4  # earlier cases of a crashed child run alone, each in a fresh child, to find the one to blame
SHIP_LIMIT = 16 * 2**20  # bytes of a wrongly shaped output above which the child describes it instead of sending it
VERDICTS_KEPT = 64
_PR_SET_PDEATHSIG = 1


class BackendCrash(Exception):
    """The backend's process died while running a case; `culprit` is an earlier call that crashes it alone."""

    def __init__(self, message: str, culprit: BackendCall | None = None) -> None:
        super().__init__(message)
        self.culprit = culprit


class BackendTimeout(Exception):
    """The backend did not answer within the per-case timeout."""


class RemoteError(Exception):
    """The backend raised inside the worker: `text` is its type and whole message on one line, `trace` the tail of
    its traceback."""

    def __init__(self, text: str, trace: str = "") -> None:
        super().__init__(f"{text}\n{trace}" if trace else text)
        self.text = text
        self.trace = trace


@dataclass(frozen=True, slots=True)
class Unshipped:
    """An output the child kept: its shape differs from the expected one and it is large."""

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    nbytes: int
    expected: list[int]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def describe(self) -> str:
        return f"{self.dtype.name}, {self.nbytes / 2**20:.0f} MB, not sent from the backend's process"


def die_with_parent() -> None:
    """Ask Linux to kill this process when the one that started it dies (its parent killed by SIGKILL cannot end it
    otherwise); nothing elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the parent's close() still ends the child
        return


def _serve(conn: Connection, spec: str) -> None:
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the parent decides
    from conformance.backends.resolve import resolve_backend

    try:
        backend = resolve_backend(spec)
        backend.warm()  # within STARTUP_TIMEOUT, not the first case's timeout
    except Exception as e:  # reported to the parent, which turns it into a readable error
        _tell(conn, ("fatal", exception_text(e)))
        return
    if not _tell(conn, ("ready", "")):
        return
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):  # the parent closed the pipe or is gone: nothing left to do
            return
        kind, call = request
        try:
            reply = _answer(backend, kind, call)
        except Exception as e:  # any backend failure goes back to the parent as data
            reply = ("error", (exception_text(e), _traceback_tail(e)))
        try:
            conn.send(reply)
        except OSError:  # the parent stopped waiting (a timeout, a signal): it ends this process
            return


def _tell(conn: Connection, message: tuple[str, str]) -> bool:
    """Send the parent how start-up went; False when it is gone (a signal stopped the run while this process started,
    and its run's registry snapshot may be gone with it, which is why start-up failed): nothing is left to tell."""
    try:
        conn.send(message)
    except OSError:
        return False
    return True


def _answer(backend: Any, kind: str, call: BackendCall) -> tuple[str, Any]:
    try:
        if kind == "supports":
            return ("ok", backend.supports(call))
        return ("ok", shippable(backend.run(call), call))
    except Unsupported as e:
        return ("unsupported", str(e))


def shippable(outputs: list[Any], call: BackendCall) -> list[Any]:
    """`outputs` with each large array whose shape differs from the expected one replaced by an `Unshipped`."""
    expected = call.output_shapes or []
    kept: list[Any] = []
    for i, y in enumerate(outputs):
        want = expected[i] if i < len(expected) else None
        if isinstance(y, np.ndarray) and y.nbytes > SHIP_LIMIT and isinstance(want, list) \
                and all(isinstance(d, int) for d in want) and list(y.shape) != want:
            kept.append(Unshipped(tuple(int(d) for d in y.shape), y.dtype, int(y.nbytes), [int(d) for d in want]))
        else:
            kept.append(y)
    return kept


def _traceback_tail(error: BaseException) -> str:
    try:
        return "".join(traceback.format_exception(error)[-3:]).strip()
    except Exception:  # formatting calls the exception's __str__, which may raise (exception_text says what it was)
        return ""


def describe_call(call: BackendCall) -> str:
    """`ai.onnx@11::TopK (float32[3, 4], int64[1])`: an earlier case named in a crash's message."""
    from conformance.containers import describe

    inputs = ", ".join("-" if x is None else describe(x) for x in call.inputs)
    return f"{call.domain}@{call.version}::{call.op} ({inputs})"


class IsolatedBackend:
    """Same face as `Backend` (`supports(call)`, `run(call)`), with the backend in a child process."""

    def __init__(self, spec: str, *, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout
        self._process: Any = None
        self._conn: Connection | None = None
        self._context = multiprocessing.get_context("spawn")
        self._history: deque[BackendCall] = deque(maxlen=TRIAGE_CASES + 1)  # run calls sent to the current child
        self._verdicts: dict[bytes, tuple[str, BackendCall | None]] = {}  # a crashed case's verdict

    def _start(self) -> Connection:
        parent, child = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(child, self.spec), daemon=True)
        self._process.start()
        child.close()
        self._history.clear()
        if not parent.poll(STARTUP_TIMEOUT):
            self.close()
            raise BackendTimeout(f"backend '{self.spec}' did not start within {STARTUP_TIMEOUT:.0f} s")
        status, message = self._receive(parent, "starting")
        if status == "fatal":
            self.close()
            raise RemoteError(f"backend '{self.spec}' failed to load: {message}")
        self._conn = parent
        return parent

    def _receive(self, conn: Connection, what: str) -> tuple[str, Any]:
        try:
            reply: tuple[str, Any] = conn.recv()
            return reply
        except (EOFError, ConnectionResetError, OSError) as e:
            code = self._process.exitcode if self._process is not None else None
            self.close()
            signal_name = f"signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
            raise BackendCrash(f"backend process died while {what} ({signal_name}; {type(e).__name__})") from None

    def _request(self, kind: str, call: BackendCall) -> Any:
        conn = self._conn if self._conn is not None and self._process.is_alive() else self._start()
        try:
            conn.send((kind, call))
        except (BrokenPipeError, OSError):
            self.close()
            conn = self._start()
            conn.send((kind, call))
        if kind == "run":
            self._history.append(call)
        if not conn.poll(self.timeout):
            self.close()
            raise BackendTimeout(f"backend did not answer within {self.timeout:g} s (hang)")
        status, payload = self._receive(conn, f"running {call.op}")
        if status == "unsupported":
            raise Unsupported(payload)
        if status == "error":
            raise RemoteError(*payload)
        return payload

    def supports(self, call: BackendCall) -> bool:
        return bool(self._request("supports", call))

    def run(self, call: BackendCall) -> list[np.ndarray]:
        key = _digest(call) if self._verdicts else None
        if key is not None and key in self._verdicts:
            message, culprit = self._verdicts[key]
            raise BackendCrash(message, culprit)
        try:
            result: list[np.ndarray] = self._request("run", call)
        except BackendCrash as crash:
            earlier = list(self._history)[:-1]
            verdict = self._triage(call, str(crash), earlier)
            self._verdicts[key if key is not None else _digest(call)] = (str(verdict), verdict.culprit)
            while len(self._verdicts) > VERDICTS_KEPT:
                del self._verdicts[next(iter(self._verdicts))]
            raise verdict from None
        return result

    def _triage(self, call: BackendCall, crash: str, earlier: list[BackendCall]) -> BackendCrash:
        """The crash of `call` after `earlier` in one child, explained: `call` crashes alone; or it crashes right
        after one earlier call (the latest such, `culprit`); or neither (the message says so)."""
        if self._crashes_after([], call):
            return BackendCrash(f"{crash}; it crashes again when run alone in a fresh process")
        for prior in reversed(earlier):
            if self._crashes_after([prior], call):
                return BackendCrash(f"{crash}; run alone in a fresh process this case passes, but it crashes right "
                                    f"after an earlier case of the crashed process, which likely corrupts the "
                                    f"backend's state: {describe_call(prior)}", culprit=prior)
        before = f", nor right after any of the {len(earlier)} cases run before it in that process" if earlier else ""
        return BackendCrash(f"{crash}; the crash does not reproduce alone: this case passes when run alone in a "
                            f"fresh process{before}")

    def _crashes_after(self, before: list[BackendCall], call: BackendCall) -> bool:
        """Whether `call` crashes a fresh child that ran `before` first (a hang, an error or an earlier crash is not
        the crash looked for)."""
        self.close()
        try:
            for prior in before:
                self._request("run", prior)
        except Exception:  # the earlier case fails on its own: not the sequence looked for
            return False
        try:
            self._request("run", call)
        except BackendCrash:
            return True
        except Exception:
            return False
        return False

    def close(self) -> None:
        """End the child (killed first: it never sees its pipe close while it lives)."""
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
            self._process = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _digest(call: BackendCall) -> bytes:
    """The same for two calls of the same case (a Hypothesis replay builds a new one)."""
    return hashlib.sha256(pickle.dumps(call, protocol=pickle.HIGHEST_PROTOCOL)).digest()
