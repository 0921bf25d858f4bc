"""Line maps: where each value of a registry file starts (kept free of yaml so cached loads skip it)."""

from __future__ import annotations

Path_ = tuple[str | int, ...]
LineMap = dict[Path_, int]


def line_of(lines: LineMap, path: Path_) -> int | None:
    """The line of `path`, or of its nearest ancestor that has one."""
    p = tuple(path)
    while p:
        if p in lines:
            return lines[p]
        p = p[:-1]
    return lines.get((), None)


def locating_paths(lines: LineMap) -> LineMap:
    """The entries records keep a Location for (versions and their attributes, params, constraints, examples)."""
    return {p: n for p, n in lines.items() if len(p) <= 2 or (p[0] == "versions" and len(p) <= 4)}
