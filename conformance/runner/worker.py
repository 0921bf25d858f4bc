"""Isolation: a backend's calls run in a persistent child process, restarted after a crash or a hang.

The parent sends a BackendCall over a pipe and waits at most `timeout` seconds. A child that dies
(segfault, abort, os._exit) or does not answer in time becomes a BackendCrash / BackendTimeout for
that case only; the next call starts a fresh child.
"""

from __future__ import annotations

import multiprocessing
import traceback
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from conformance.backends.protocol import BackendCall, Unsupported

STARTUP_TIMEOUT = 120.0  # importing a backend (onnxruntime, torch ...) can take a while


class BackendCrash(Exception):
    """The backend's process died while running a case."""


class BackendTimeout(Exception):
    """The backend did not answer within the per-case timeout."""


class RemoteError(Exception):
    """The backend raised inside the worker; the message carries its type and traceback tail."""


def exception_line(error: BaseException) -> str:
    """`ValueError: first line of the message`, or the type alone when the message is empty or cannot be printed:
    a backend's exception is described in one line whatever its `__str__` does."""
    try:
        text = str(error).strip()
    except Exception:  # a backend's own __str__ may raise anything; its type still says what happened
        text = ""
    first = text.splitlines()[0] if text else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _serve(conn: Connection, spec: str) -> None:
    from conformance.backends.resolve import resolve_backend

    try:
        backend = resolve_backend(spec)
    except Exception as e:  # reported to the parent, which turns it into a readable error
        conn.send(("fatal", f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", ""))
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        kind, call = request
        try:
            if kind == "supports":
                conn.send(("ok", backend.supports(call)))
            else:
                conn.send(("ok", backend.run(call)))
        except Unsupported as e:
            conn.send(("unsupported", str(e)))
        except Exception as e:  # any backend failure goes back to the parent as data
            conn.send(("error", f"{exception_line(e)}\n{_traceback_tail(e)}"))


def _traceback_tail(error: BaseException) -> str:
    try:
        return "".join(traceback.format_exception(error)[-3:]).strip()
    except Exception:  # formatting calls the exception's __str__, which may raise (exception_line says what it was)
        return ""


class IsolatedBackend:
    """Same face as `Backend` (`supports(call)`, `run(call)`), with the backend in a child process."""

    def __init__(self, spec: str, *, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout
        self._process: Any = None
        self._conn: Connection | None = None
        self._context = multiprocessing.get_context("spawn")

    def _start(self) -> Connection:
        parent, child = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(child, self.spec), daemon=True)
        self._process.start()
        child.close()
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
            signal = f"signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
            raise BackendCrash(f"backend process died while {what} ({signal}; {type(e).__name__})") from None

    def _request(self, kind: str, call: BackendCall) -> Any:
        conn = self._conn if self._conn is not None and self._process.is_alive() else self._start()
        try:
            conn.send((kind, call))
        except (BrokenPipeError, OSError):
            self.close()
            conn = self._start()
            conn.send((kind, call))
        if not conn.poll(self.timeout):
            self.close()
            raise BackendTimeout(f"backend did not answer within {self.timeout:g} s (hang)")
        status, payload = self._receive(conn, f"running {call.op}")
        if status == "unsupported":
            raise Unsupported(payload)
        if status == "error":
            raise RemoteError(payload)
        return payload

    def supports(self, call: BackendCall) -> bool:
        return bool(self._request("supports", call))

    def run(self, call: BackendCall) -> list[np.ndarray]:
        result: list[np.ndarray] = self._request("run", call)
        return result

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
            self._process = None
