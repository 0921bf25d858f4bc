"""Writing generated files, the one way every generator does it: only when their content changed, and deleting
only what the generator wrote.

A file is ours when its first line starts with the generator's marker (a stable prefix of the header, so a reworded
header still recognises older files; a renamed generator lists its former markers); nothing else under the output
folder is ever written over or deleted. `gen ops` and `gen docs` plan a whole tree (`plan_files`: what to write, what
to delete, what is current, which is also their `--check`); `gen tests` (conformance.test_modules) and `gen netron`
write single files (`write_if_changed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


class OutputError(Exception):
    """A file in the output folder that the generator must not touch, or a folder or file it cannot write."""


@dataclass
class Plan:
    root: Path
    write: dict[Path, str] = field(default_factory=dict)  # new or changed files -> content
    delete: list[Path] = field(default_factory=list)  # marked files the generator no longer produces
    unchanged: int = 0

    def stale(self) -> list[str]:
        """What `--check` lists: each file to write (missing or out of date) and each to delete, relative."""
        lines = [f"{p.relative_to(self.root).as_posix()} ({'out of date' if p.exists() else 'missing'})"
                 for p in self.write]
        return lines + [f"{p.relative_to(self.root).as_posix()} (no longer generated)" for p in self.delete]


def write_if_changed(path: Path, text: str) -> bool:
    """Write `text` to `path` unless it already holds exactly that; True when written."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def plan_files(out: Path, files: dict[str, str], *, marker: str, pattern: str,
               former: Sequence[str] = ()) -> Plan:
    """What writing `files` (relative path -> content, each starting with `marker`) under `out` changes; files
    matching `pattern` that carry the marker (or a `former` one) and are no longer produced are to be deleted."""
    plan = Plan(out)
    markers = (marker, *former)
    for rel, content in sorted(files.items()):
        if not content.startswith(marker):
            raise ValueError(f"{rel}: generated content must start with the marker {marker!r}")
        path = out / rel
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            plan.unchanged += 1
        elif path.exists() and not path.is_file():
            raise OutputError(f"{path} is in the way of a generated file")
        elif path.is_file() and not _is_generated(path, markers):
            raise OutputError(f"{path} was not written by the generator; refusing to overwrite it")
        else:
            plan.write[path] = content
    wanted = {out / rel for rel in files}
    if out.is_dir():
        plan.delete = sorted(p for p in out.rglob(pattern) if p not in wanted and _is_generated(p, markers))
    return plan


def check_writable(out: Path) -> None:
    """OutputError unless `out` is a folder that can be written, or can be created (probed with a file created and
    removed in it or in the nearest folder above it that exists): before anything is rendered."""
    import tempfile

    existing = out
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{out}: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".gen-probe-"):
            pass
    except OSError as e:
        raise OutputError(f"{out}: cannot write in {existing}: {e.strerror or e}") from e


def apply_plan(plan: Plan) -> None:
    """Write and delete as planned; OutputError (one line: the path and the system's reason) when the disk refuses."""
    for path, content in plan.write.items():
        try:
            write_if_changed(path, content)
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
    for path in plan.delete:
        try:
            path.unlink()
            _remove_empty_parents(path.parent, plan.root)
        except OSError as e:
            raise OutputError(f"cannot delete {path}: {e.strerror or e}") from e


def _is_generated(path: Path, markers: Sequence[str]) -> bool:
    with path.open(encoding="utf-8", errors="replace") as f:
        return f.readline().startswith(tuple(markers))


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_relative_to(root) and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
