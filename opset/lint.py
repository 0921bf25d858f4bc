"""`opset lint`: check the registry, optionally with extra op files, without the cache."""

from __future__ import annotations

from pathlib import Path

from opset.errors import Problem, RegistryError
from opset.load import read_and_check, schemas_dir


def lint(extra: list[Path]) -> tuple[list[Problem], int]:
    """All problems of the registry plus `extra` files (folders are searched for *.yaml); and the file count.

    An extra file belongs to the domain named by its folder and is checked against the registry's
    domains and ops (so `maps_to` targets resolve), as if it were part of it.
    """
    root = schemas_dir()
    files = {p.resolve() for p in root.glob("*/*.yaml") if p.parent.name != "meta"}
    missing = []
    for path in extra:
        if path.is_dir():
            files |= {p.resolve() for p in path.rglob("*.yaml")}
        elif path.is_file():
            files.add(path.resolve())
        else:
            missing.append(Problem(str(path), None, None, "no such file or folder"))
    ordered = sorted(files, key=lambda p: (p.name != "_domain.yaml", str(p)))
    try:
        read_and_check(root, ordered)
    except RegistryError as e:
        return missing + e.problems, len(ordered)
    return missing, len(ordered)
