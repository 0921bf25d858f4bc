"""The cells of the registry: every (domain, op, since, dtype) a conformance run can report on."""

from __future__ import annotations

from opset.cells import cell_dtypes


def registry_cells() -> list[tuple[str, str, int, str]]:
    from conformance.registry import current_registry

    cells = []
    for version in current_registry().all_versions():
        drawable, unsupported = cell_dtypes(version)
        for dtype in drawable + unsupported:
            cells.append((version.domain, version.name, version.since, dtype))
    return cells
