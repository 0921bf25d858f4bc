"""Write generated files only when their content changed, and find generated files no longer produced.

A file is ours when its first line starts with the generator's marker (a stable prefix of the
header, so a reworded header still recognises older pages); nothing else under the output folder
is ever written over or deleted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class OutputError(Exception):
    """A file in the output folder that the generator must not touch."""


@dataclass
class Plan:
    root: Path
    write: dict[Path, str] = field(default_factory=dict)  # new or changed files -> content
    delete: list[Path] = field(default_factory=list)  # marked files the generator no longer produces
    unchanged: int = 0


def plan_files(out: Path, pages: dict[str, str], *, marker: str) -> Plan:
    plan = Plan(out)
    for rel, content in sorted(pages.items()):
        if not content.startswith(marker):
            raise ValueError(f"{rel}: generated content must start with the marker {marker!r}")
        path = out / rel
        if path.is_file() and path.read_text(encoding="utf-8") == content:
            plan.unchanged += 1
        elif path.exists() and not path.is_file():
            raise OutputError(f"{path} is in the way of a generated file")
        elif path.is_file() and not _is_generated(path, marker):
            raise OutputError(f"{path} was not written by the generator; refusing to overwrite it")
        else:
            plan.write[path] = content
    wanted = {out / rel for rel in pages}
    if out.is_dir():
        plan.delete = sorted(p for p in out.rglob("*.md") if p not in wanted and _is_generated(p, marker))
    return plan


def check_writable(out: Path) -> None:
    """OutputError unless `out` is a folder that can be written, or can be created (probed with a file created and
    removed in it or in the nearest folder above it that exists): before any page is rendered."""
    import tempfile

    existing = out
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{out}: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".gen-docs-probe-"):
            pass
    except OSError as e:
        raise OutputError(f"{out}: cannot write in {existing}: {e.strerror or e}") from e


def apply_plan(plan: Plan) -> None:
    """Write and delete as planned; OutputError (one line: the path and the system's reason) when the disk refuses."""
    for path, content in plan.write.items():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
    for path in plan.delete:
        try:
            path.unlink()
            _remove_empty_parents(path.parent, plan.root)
        except OSError as e:
            raise OutputError(f"cannot delete {path}: {e.strerror or e}") from e


def _is_generated(path: Path, marker: str) -> bool:
    with path.open(encoding="utf-8", errors="replace") as f:
        return f.readline().startswith(marker)


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_relative_to(root) and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
