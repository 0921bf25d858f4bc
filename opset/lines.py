"""Line maps: where each value of a registry file starts, and the line of any path in it (for locations)."""

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
