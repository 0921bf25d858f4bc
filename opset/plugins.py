"""Entry points other packages declare (`opset run` is one, in the group `opset.commands`), read the way
`importlib.metadata.entry_points(group=...)` reads them, without importing it.

Importing importlib.metadata (email, zipfile, csv, pathlib ...) cost `opset --help` about a third of its cold time,
more than the rest of the command. The common layout is simple to read directly: each folder of `sys.path`, its
`*.dist-info` and `*.egg-info` folders in listing order, the first distribution of each normalised name, its
`entry_points.txt` (sections of `name = value` lines). Anything else (a zip or egg on `sys.path`, another finder that
knows distributions) is handed to importlib.metadata itself, so the answer is always the same as its answer;
tests/test_cold_imports.py compares them on the installed environment.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Any

_SEPARATORS = re.compile(r"[-_.]+")
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class PluggedEntry:
    """One entry point: its name and `module:attr` value, loaded on demand (a plain class: the dataclass machinery
    would cost `opset --help` more than this module)."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    def __repr__(self) -> str:
        return f"PluggedEntry({self.name!r}, {self.value!r})"

    def load(self) -> Any:
        """The object the value names (as `importlib.metadata.EntryPoint.load`)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name}: '{self.value}' is not module:attr")
        found: Any = importlib.import_module(match.group("module"))
        for part in filter(None, (match.group("attr") or "").split(".")):
            found = getattr(found, part)
        return found


def entry_points_of(group: str) -> dict[str, PluggedEntry]:
    """The entry points of `group` by name (a later one of the same name wins, as a dict built from
    importlib.metadata's list does)."""
    folders = _plain_path()
    if folders is None:
        from importlib.metadata import entry_points

        return {ep.name: PluggedEntry(ep.name, ep.value) for ep in entry_points(group=group)}
    found: dict[str, PluggedEntry] = {}
    seen: set[str] = set()
    for folder in folders:
        for info in _metadata_folders(folder, seen):
            for name, value in _section(info, group):
                found[name] = PluggedEntry(name, value)
    return found


def _plain_path() -> list[str] | None:
    """The folders of `sys.path` when all of them are plain folders (or absent) and only the standard path finder
    knows distributions, else None."""
    from importlib.machinery import PathFinder  # the standard one, already loaded at start-up

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return None
    folders = []
    for entry in sys.path:
        folder = entry or "."
        if os.path.isfile(folder) or folder.lower().endswith(".egg"):
            return None
        folders.append(folder)
    return folders


def _metadata_folders(folder: str, seen: set[str]) -> list[str]:
    """The distribution folders of `folder` not shadowed by an earlier one of the same normalised name."""
    try:
        children = os.listdir(folder)
    except OSError:
        return []
    chosen = []
    for child in children:
        low = child.lower()
        if not low.endswith((".dist-info", ".egg-info")):
            continue
        name = _SEPARATORS.sub("_", low.rpartition(".")[0].partition("-")[0])
        if name not in seen:
            seen.add(name)
            chosen.append(os.path.join(folder, child))
    return chosen


def _section(info: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` pairs of section `[group]` of the distribution's entry_points.txt."""
    try:
        with open(os.path.join(info, "entry_points.txt"), encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    pairs = []
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == group:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs
