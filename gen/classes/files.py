"""Write generated files only when their content changed, and compare a fresh render with the tree."""

from __future__ import annotations

from pathlib import Path

from gen.header import marker

MARKER = marker("gen/classes", "python")  # gen classes' files (gen.classes.render's MARKER, without Jinja2)


def write_changed(root: Path, files: dict[str, str], marker: str = MARKER) -> tuple[list[str], list[str]]:
    """Write `files` (relative path -> text) under `root`; remove generated files no longer produced.

    Returns (written, removed) relative paths. Only files that carry the @generated header are removed
    (`marker`: the header's start of the generator writing them; gen classes' by default).
    """
    written = []
    for rel, text in sorted(files.items()):
        path = root / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(rel)
    removed = []
    for rel in leftover_files(root, files, marker):
        (root / rel).unlink()
        removed.append(rel)
    return written, removed


def leftover_files(root: Path, files: dict[str, str], marker: str = MARKER) -> list[str]:
    """Generated files under `root` that the current registry no longer produces."""
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel not in files and _is_generated(path, marker):
            found.append(rel)
    return found


def stale_files(root: Path, fresh: Path, marker: str = MARKER) -> list[str]:
    """Files that differ between the tree at `root` and a fresh render at `fresh` (missing, changed, extra)."""
    expected = {p.relative_to(fresh).as_posix(): p.read_text(encoding="utf-8") for p in fresh.rglob("*.py")}
    stale = []
    for rel, text in sorted(expected.items()):
        path = root / rel
        if not path.is_file():
            stale.append(f"{rel} (missing)")
        elif path.read_text(encoding="utf-8") != text:
            stale.append(f"{rel} (out of date)")
    stale += [f"{rel} (no longer generated)" for rel in leftover_files(root, expected, marker)]
    return stale


def _is_generated(path: Path, marker: str) -> bool:
    with path.open(encoding="utf-8") as f:
        return f.readline().startswith(marker)
