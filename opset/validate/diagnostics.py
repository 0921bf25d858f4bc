"""Validation findings: one `Diagnostic` per problem, rendered as a line of text or as JSON.

`check` is either a registry constraint id (`conv_c1`) or one of the stable check ids in
`opset.check_ids.CHECKS`; tools key on it, people read `message`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from opset.errors import one_line

Severity = Literal["error", "warning"]



@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. `node_index` counts nodes of the graph named by `graph` (the main graph is "")."""

    severity: Severity
    check: str
    message: str
    node_index: int | None = None
    node_name: str | None = None
    op: str | None = None  # `ai.onnx@13::Add`, or `domain::Op` when the op did not resolve
    graph: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def place(self) -> str:
        parts: list[str] = []
        if self.graph:
            parts.append(f"graph {self.graph}")
        if self.node_index is not None:
            name = f" '{self.node_name}'" if self.node_name else ""
            parts.append(f"node {self.node_index}{name}")
        if self.op:
            parts.append(f"({self.op})")
        return " ".join(parts)

    def __str__(self) -> str:
        place = self.place()
        where = f" {place}:" if place else ""
        return f"{self.severity} [{self.check}]{where} {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def render_text(diagnostics: list[Diagnostic], source: str) -> str:
    lines = [one_line(f"{source}: {d}") for d in diagnostics]
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    lines.append(f"{source}: {errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def render_json(diagnostics: list[Diagnostic], source: str, values: dict[str, Any] | None = None) -> str:
    """The diagnostics, and (when given) `values`: every main-graph value's inferred type and shape."""
    import json  # here: a plain-text run has no use for it

    errors = sum(d.is_error for d in diagnostics)
    blob: dict[str, Any] = {"model": source, "errors": errors, "warnings": len(diagnostics) - errors,
                            "diagnostics": [d.to_dict() for d in diagnostics]}
    if values is not None:
        blob["values"] = values
    return json.dumps(blob, indent=1)
