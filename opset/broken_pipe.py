"""A command whose reader goes away (`opset validate --json m.onnx | head -1`) ends quietly, not with a traceback.

Python raises BrokenPipeError at the first write (or the final flush) after the reader closed the pipe, and then
complains once more at exit when it flushes stdout again. The entry points of `opset`, `gen` and `conform` wear
`ends_quietly_on_broken_pipe` once, around their `main`: the pipe error ends the command with exit code 0 (the
reader took what it wanted; nobody is left to tell), and stdout is pointed at the null device so the exit-time
flush has nowhere to fail. Any other OSError that reaches the wrapper (output that cannot be written: a full disk)
is said on stderr and ends the command with exit code 1.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import ParamSpec

P = ParamSpec("P")


def ends_quietly_on_broken_pipe(main: Callable[P, int]) -> Callable[P, int]:
    @functools.wraps(main)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> int:
        try:
            try:
                code = main(*args, **kwargs)
            finally:  # also on SystemExit (argparse's --help): buffered output meets the closed pipe here
                sys.stdout.flush()
        except BrokenPipeError:
            _detach_stdout()
            return 0
        except OSError as e:  # output that cannot be written (a full disk, `> /dev/full`), a file nobody caught
            print(f"error: {e}", file=sys.stderr)
            _drop_unwritable_stdout()
            return 1
        return code

    return wrapper


def _drop_unwritable_stdout() -> None:
    """After a failed write, stdout may still hold what it could not write: the exit-time flush would fail again
    (Python then prints "Exception ignored" and exits 120). Such output is dropped."""
    try:
        sys.stdout.flush()
    except OSError:
        _detach_stdout()


def _detach_stdout() -> None:
    """Point the process's stdout at the null device (only the real one: a caller's capture is left alone)."""
    if sys.stdout is not sys.__stdout__ or sys.__stdout__ is None:
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.__stdout__.fileno())
    finally:
        os.close(null)
