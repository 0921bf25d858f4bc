"""Ending a finished command's process without tearing the interpreter down.

At exit Python frees every object it holds, one by one: after `opset validate` that is the whole registry (tens of
thousands of records) and protobuf's descriptors, about 25 ms of a 140 ms cold run, which onnx's one-liner does not
pay. A command that has written all it writes, holds no temporary file, thread or child process and registers no
exit handler can skip that: its output streams are flushed here, then the process ends with `os._exit`. Only the
console scripts do this (`opset.cli.console`), and not while a tracer or profiler watches (`observed`); `main` itself
returns as any function does, for callers in-process.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

# what Python itself exits with when flushing stdout fails at exit
FLUSH_FAILED = 120


def observed() -> bool:
    """Is a tracer, profiler or monitoring tool watching this process (a debugger, `python -m cProfile`, coverage)?
    They write what they found at exit, so such a run ends the usual way."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)  # Python 3.12 on: coverage's and debuggers' newer hook
    return monitoring is not None and any(monitoring.get_tool(tool) is not None for tool in range(6))


def end_process(code: int) -> NoReturn:
    """Flush stdout and stderr, then end the process with `code` at once. Output that cannot be written (but for a
    reader that went away) is said on stderr, where it still can be, and ends the process with 120 if it would have
    ended with 0, as Python does."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except BrokenPipeError:
            continue  # the reader went away: as `opset.broken_pipe`, nobody is left to tell
        except OSError as e:
            _say(f"error: could not write the command's output: {e}\n")
            code = code or FLUSH_FAILED
    os._exit(code)


def _say(text: str) -> None:
    try:
        os.write(2, text.encode("utf-8", "replace"))
    except OSError:
        return  # stderr is gone too: the exit code is all that is left to tell
