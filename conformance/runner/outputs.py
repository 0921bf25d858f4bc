"""Every path a command will write, checked before any work starts: one line naming the option and the path, exit 2.

A file must be creatable (its nearest existing folder writable) or, when it exists, a writable file and not a
folder; a folder must be creatable, or an existing writable folder. "Writable" is tried, not read from permission
bits: a probe file is created and removed in the folder (root passes every permission check, a read-only mount
still refuses), an existing file is opened for appending without writing. Nothing is created that the command would
not create itself, and a folder that does not exist yet stays absent (conform makes its repro folder only when a
cell fails).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(ValueError):
    """A path a command cannot write; the message names the option and the path."""


def check_file(path: Path, option: str) -> None:
    """OutputError unless `path` can be written as a file."""
    if path.is_dir():
        raise OutputError(f"{_named(option, path)}: is a folder, not a file")
    if path.exists():
        try:
            with path.open("ab"):
                pass
        except OSError as e:
            raise OutputError(f"{_named(option, path)}: cannot be written ({e.strerror or e})") from e
        return
    _check_creatable_below(path, option)


def check_folder(path: Path, option: str) -> None:
    """OutputError unless `path` is, or can be made, a folder that files can be written into."""
    if path.exists():
        if not path.is_dir():
            raise OutputError(f"{_named(option, path)}: is a file, not a folder")
        _probe(path, path, option)
        return
    _check_creatable_below(path, option)


def _check_creatable_below(path: Path, option: str) -> None:
    """The nearest existing ancestor of `path` must be a folder files can be created in."""
    ancestor = path.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputError(f"{_named(option, path)}: {ancestor} is a file, not a folder")
    _probe(ancestor, path, option)


def _named(option: str, path: Path) -> str:
    """How a message names the path: after its option (`--report r.json`), or alone when it is an argument."""
    return f"{option} {path}" if option else str(path)


def _probe(folder: Path, path: Path, option: str) -> None:
    try:
        fd, probe = tempfile.mkstemp(prefix=".conform-probe-", dir=folder)
    except OSError as e:
        where = "" if folder == path else f" ({folder})"
        raise OutputError(f"{_named(option, path)}: cannot write there{where}: {e.strerror or e}") from e
    os.close(fd)
    os.unlink(probe)
