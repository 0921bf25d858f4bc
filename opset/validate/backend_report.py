"""Will my model run on X? The nodes of a model whose conformance cell a backend's report (`conform --report`)
records as failing, unsupported or expected to fail, each with the reason the report gives.

    from opset.validate.backend_report import backend_diagnostics
    for d in backend_diagnostics("model.onnx", "onnxruntime"):   # a built-in report's name, or a report's path
        print(d)

A node's cell is its op version and the type of the version's primary parameter (`opset.cells`): the label
`ai.onnx@11::Conv[float]` the report keys its cells by. `opset validate MODEL --backend-report NAME|PATH` prints
these diagnostics after the validator's: an error (exit 1) for a node whose cell the backend fails outside its
expectations or cannot run (`backend_fails`, `backend_unsupported`), a warning where the cell is an expected gap of
the backend's expectations file, whose reason names the cases it concerns (`backend_xfail`), follows another reading
(`backend_ambiguous`) or the report has no cell for the node (`backend_untested`). The built-in reports are the
committed ones (docs/reports/ in a checkout; a wheel carries them as `opset/_reports/`, the cells' status and first
message only).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from opset.cells import cell_name, primary_param
from opset.errors import ResolutionError, one_line
from opset.model import op_label
from opset.onnx_proto import pb
from opset.registry import Registry
from opset.registry_home import reports_dir
from opset.validate.diagnostics import Diagnostic
from opset.validate.facts import Facts, type_text
from opset.validate.graph import subgraphs
from opset.validate.profiles import Profile, get_profile
from opset.validate.reading import read_model

MAX_REASON = 400  # characters of a cell's message a diagnostic quotes

# a cell's status -> (check, severity, what the report says of the backend on the node's cell); a report holds one
# verdict per cell (op version and type), not per attribute set: the reason says which cases it concerns
VERDICTS: dict[str, tuple[str, str, str]] = {
    "fail": ("backend_fails", "error", "fails cases of this cell"),
    # an expected gap concerns the cases its reason names (SAME padding with a stride past the kernel, ...), which
    # most nodes of the cell do not meet: a warning with the reason, not an error (onnxruntime runs inception_v2,
    # whose AveragePool cells its expectations list)
    "xfail": ("backend_xfail", "warning", "is known to fail some cases of this cell (an expected gap)"),
    "unsupported": ("backend_unsupported", "error", "cannot run this cell"),
    "ambiguous": ("backend_ambiguous", "warning", "follows another reading of the op in cases of this cell"),
}


class ReportError(Exception):
    """The report cannot be found or read; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Cell:
    status: str
    reason: str  # the report's first message, one line (may be empty)


@dataclass(frozen=True, slots=True)
class BackendReport:
    backend: str
    source: str  # the file it was read from
    cells: dict[str, Cell]  # cell label -> what the backend did


def known_reports() -> dict[str, Path]:
    """Built-in report name (the backend's) -> its file."""
    folder = reports_dir()
    return {p.stem: p for p in sorted(folder.glob("*.json"))} if folder.is_dir() else {}


def load_backend_report(name_or_path: str | os.PathLike[str]) -> BackendReport:
    """A report by its path, or a built-in one by name (`onnxruntime`, `reference`, `onnx-reference` ...)."""
    path = Path(name_or_path)
    if not path.is_file():
        known = known_reports()
        if str(name_or_path) not in known:
            names = ", ".join(known) or "none"
            raise ReportError(f"no report file {path} and no built-in report of that name (built-in: {names})")
        path = known[str(name_or_path)]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReportError(f"{path}: cannot read the report: {error}") from error
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, dict):
        raise ReportError(f"{path}: not a conform report (no 'cells' mapping)")
    read: dict[str, Cell] = {}
    for label, cell in cells.items():
        if not isinstance(cell, dict) or not isinstance(cell.get("status"), str):
            raise ReportError(f"{path}: cell {label!r} has no status")
        messages = cell.get("messages") or []
        first = messages[0] if isinstance(messages, list) and messages and isinstance(messages[0], str) else ""
        read[str(label)] = Cell(cell["status"], one_line(first)[:MAX_REASON])
    return BackendReport(str(data.get("backend") or path.stem), str(path), read)


def backend_diagnostics(model: pb.ModelProto | str | os.PathLike[str], report: BackendReport | str,
                        profile: str | Profile | None = None, registry: Registry | None = None,
                        facts: Mapping[str, Facts] | None = None) -> list[Diagnostic]:
    """A diagnostic for every node (subgraphs' included) whose cell the report records as failing, unsupported,
    expected to fail or ambiguous, or does not hold. `facts` (the main graph's, `check_model(...).facts`) type the
    nodes' values; a subgraph's values are typed by what it declares."""
    from opset.validate import _table, check_model

    proto = model if isinstance(model, pb.ModelProto) else read_model(model)
    found = report if isinstance(report, BackendReport) else load_backend_report(report)
    chosen = profile if isinstance(profile, Profile) else get_profile(profile)
    if facts is None:
        facts = check_model(proto, chosen, registry).facts
    table = _table(registry)
    imports = {("" if i.domain in ("", "ai.onnx") else i.domain): i.version for i in proto.opset_import}
    diags: list[Diagnostic] = []
    for path, index, node, types in _nodes(proto.graph, "", dict(_types(facts))):
        imported = imports.get("" if node.domain in ("", "ai.onnx") else node.domain)
        if imported is None:
            continue  # the validator reports the missing import
        info = _resolve(table.registry, chosen, node, imported)
        if info is None:
            continue  # an unknown op: the validator reports it
        label = _cell(info, node, types)
        if label is None:
            continue  # no type known for the node's primary parameter
        cell = found.cells.get(label)
        where = (index, node.name or None, label, path)
        if cell is None:
            diags.append(Diagnostic("warning", "backend_untested", f"{found.backend}'s report has no cell for it",
                                    *where))
            continue
        verdict = VERDICTS.get(cell.status)
        if verdict is not None:
            check, severity, what = verdict
            reason = f": {cell.reason}" if cell.reason else ""
            diags.append(Diagnostic(severity, check, f"{found.backend} {what}{reason}", *where))  # type: ignore[arg-type]
    return diags


def _types(facts: Mapping[str, Facts]) -> Iterator[tuple[str, str]]:
    for name, f in facts.items():
        if f.type is not None:
            yield name, f.type


def _nodes(graph: pb.GraphProto, path: str, types: dict[str, str]
           ) -> Iterator[tuple[str, int, pb.NodeProto, dict[str, str]]]:
    """(graph path, index, node, the value types it sees) for every node, subgraphs' after their node's."""
    for index, node in enumerate(graph.node):
        yield path, index, node, types
        for attr, g in subgraphs(node):
            inner = dict(types)
            for vi in [*g.input, *g.value_info, *g.output]:
                text = type_text(vi.type)
                if text is not None:
                    inner[vi.name] = text
            label = node.name or f"{node.op_type}_{index}"
            yield from _nodes(g, f"{path}/{label}.{attr}" if path else f"{label}.{attr}", inner)


def _resolve(registry: Registry, profile: Profile, node: pb.NodeProto, imported: int) -> Any:
    """The version a node resolves to under the profile (the validator's rule: `ModelValidation._lookup`), or None."""
    domain, opset = profile.map(node.domain, imported)
    candidates = [(domain, opset)] + [(d, min(opset, registry.domains[d].max_opset))
                                      for d in profile.also(node.domain) if d in registry.domains]
    best = None
    for d, k in candidates:
        try:
            version = registry.resolve(d, node.op_type, k)
        except ResolutionError:
            continue
        if best is None or version.since > best.since:
            best = version
    return best


def _cell(version: Any, node: pb.NodeProto, types: Mapping[str, str]) -> str | None:
    """The node's cell label: its version and the cell name of its primary parameter's type."""
    param = primary_param(version)
    if param is None:
        return op_label(version.domain, version.name, version.since)
    inputs = [p.name for p in version.inputs]
    if param.name in inputs:
        position = inputs.index(param.name)
        value = node.input[position] if position < len(node.input) else ""
    else:
        position = [p.name for p in version.outputs].index(param.name)
        value = node.output[position] if position < len(node.output) else ""
    text = types.get(value) if value else None
    return op_label(version.domain, version.name, version.since, cell_name(text)) if text is not None else None
