"""Where `opset run` writes, checked before any node runs, written so a failure leaves no half file; and how a
signal stops it.

`check_output_dir` probes the folder (or, when it does not exist yet, the nearest folder above it that does) by
creating and removing a file there: a read-only mount, a file in the way or a missing permission is found before the
model runs, not after. `write_file` writes through a temporary name renamed into place, so a disk that fills up
leaves the outputs written before it and no truncated `.npy`. A signal stops it as it stops conform
(`conformance.signals`): the command says what it kept and exits 128 + the signal's number (130, 143).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO


class OutputError(Exception):
    """A path that cannot be written: one line, naming the path and the system's reason."""


def check_output_dir(path: Path, flag: str = "--output-dir") -> None:
    """Raise OutputError unless `path` is a folder that can be written, or can be created and then written."""
    existing = path
    while not existing.exists():
        if existing.is_symlink():
            raise OutputError(f"{flag} {path}: {existing} is a broken symbolic link")
        parent = existing.parent
        if parent == existing:
            break
        existing = parent
    if not existing.is_dir():
        what = "is a file" if existing == path else f"cannot be created: {existing} is a file"
        raise OutputError(f"{flag} {path}: {what}")
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".opset-run-probe-"):
            pass
    except OSError as e:
        where = "" if existing == path else f"cannot be created in {existing}: "
        raise OutputError(f"{flag} {path}: {where}not writable ({e.strerror or e})") from e


def check_output_files(paths: list[Path]) -> None:
    """An output file whose path is taken by a folder cannot be written: say so before the run."""
    for path in paths:
        if path.is_dir():
            raise OutputError(f"cannot write {path}: a folder of that name is in the way")


def write_file(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """`write` into a temporary file beside `path`, then rename it into place; OutputError (nothing left behind)
    when the folder cannot be made or the disk refuses a byte."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        os.replace(partial, path)
    except OSError as e:
        _remove_quietly(partial)
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
    except BaseException:
        _remove_quietly(partial)
        raise


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass  # already gone, or the folder went read-only: the rename never happened, so no output is wrong
