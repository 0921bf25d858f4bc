"""The layout DESIGN.md describes holds: data flows one way, with no import circles.

schemas -> opset -> gen -> conformance (conform generates its test modules with gen), and bench
reads any of them; nothing imports back up that chain, and no module reaches itself through its
imports (function-level and TYPE_CHECKING imports count too: a circle hidden in a function is
still a circle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("opset", "gen", "conformance", "bench")
# package -> the packages it may import
ALLOWED = {
    "opset": set(),
    "gen": {"opset"},
    "conformance": {"opset", "gen"},
    "bench": {"opset", "gen", "conformance"},
}


def _module_files() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if (ROOT / "opset" / "ops") in path.parents:
                continue  # generated op functions import only opset.graph
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported_names(module: str, path: Path) -> Iterator[str]:
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # `from pkg import name`: the submodule pkg.name if there is one, else pkg itself
            yield from (f"{origin}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    modules = _module_files()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        found = {known(name) for name in _imported_names(module, path)}
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert circles(import_graph()) == []


def test_packages_import_only_down_the_data_flow() -> None:
    wrong = sorted({f"{m} imports {d}" for m, deps in import_graph().items() for d in deps
                    if d.split(".")[0] != m.split(".")[0] and d.split(".")[0] not in ALLOWED[m.split(".")[0]]})
    assert wrong == []


def test_no_test_module_imports_another() -> None:
    """What tests share lives in tests/helpers/ (and conftest.py); a test module is never imported."""
    offenders = []
    for path in (ROOT / "tests").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in _imported_names(module, path):
            parts = name.split(".")
            if parts[0] == "tests" and any(p.startswith("test_") for p in parts[1:]):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
