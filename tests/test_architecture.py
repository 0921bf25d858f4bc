"""The layers of docs/architecture.md hold: data flows one way, with no circles, counting every kind of arrow.

opset -> gen -> conformance (its reference layer, kernels and model runner, below conform's runner) -> bench.
An arrow is an import (function-level and TYPE_CHECKING imports count too: a circle hidden in a function is still a
circle), a string naming a module of the project (what `importlib.import_module` or an entry-point value loads), an
entry point of pyproject.toml (the plug-in reaches the package whose group it joins: it implements that package's
declared interface), and an import a template writes into the files it generates (the generator's package reaches
what its output imports). Nothing points up the chain, and no module reaches itself.
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("opset", "gen", "conformance", "bench")
# package -> the packages it may reach
ALLOWED = {
    "opset": set(),
    "gen": {"opset"},
    "conformance": {"opset", "gen"},
    "bench": {"opset", "gen", "conformance"},
}
# the reference layer inside conformance (kernels and the model runner behind `opset run` and eager mode) and what it
# never reaches: conform's runner, its command line, its suites and its generated test modules
REFERENCE_LAYER = ("conformance.kernels", "conformance.models")
ABOVE_REFERENCE = ("conformance.runner", "conformance.cli", "conformance.suites", "conformance.test_modules")
# entry-point group -> the module that reads it (the declared interface its plug-ins implement)
GROUP_HOSTS = {
    "opset.commands": "opset.cli",
    "opset.evaluators": "opset.graph.evaluator",
    "opset.backends": "conformance.backends.resolve",
    "gen.commands": "gen.cli",
}
_MODULE_TEXT = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z0-9_]+)+(:[A-Za-z_][\w.]*)?")
_LOADERS = ("import_module", "find_spec", "__import__")
_TEMPLATE_IMPORT = re.compile(r"^\s*(?:from\s+([a-z_][\w.]*)\s+import|import\s+([a-z_][\w.]*))", re.M)


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


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once per test process (the arrows read every file twice, three tests read them)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imported_names(module: str, path: Path) -> Iterator[str]:
    is_package = path.name == "__init__.py"
    for node in ast.walk(_tree(path)):
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


def _resolver(modules: dict[str, Path]) -> Callable[[str], str | None]:
    """The module a dotted name lands in (`pkg.mod.attr` -> `pkg.mod`), None outside the project."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    return known


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (statements only)."""
    modules = _module_files()
    known = _resolver(modules)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        found = {known(name) for name in _imported_names(module, path)}
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def named_modules(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules a file names to load them: a `"pkg.mod:attr"` string anywhere, a module's name in a
    call to import_module, find_spec or __import__ (an f-string by its constant head, `f"pkg.sub.{name}"`), or in a
    module-level table (`GENERATORS = {"ops": ("gen.ops.generator", ...)}`); not a docstring, not a producer name."""
    tree = _tree(path)
    skip = _docstrings(tree)
    loading = [arg for node in ast.walk(tree) if isinstance(node, ast.Call)
               and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in _LOADERS
               for arg in node.args]
    tables = [node.value for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value]
    found = set()
    for root in [tree, *loading, *tables]:
        for node in ast.walk(root):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                text = node.value
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                text = str(node.values[0].value).rstrip(".")
            if not text or not _MODULE_TEXT.fullmatch(text) or text.partition(":")[0] not in modules:
                continue
            if root is not tree or ":" in text:
                found.add(text.partition(":")[0])
    return found


def entry_point_arrows(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Plug-in module -> the module whose group it joins (pyproject.toml's entry points), across packages."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    arrows: dict[str, set[str]] = {}
    for group, entries in project.get("entry-points", {}).items():
        host = GROUP_HOSTS[group]  # a KeyError names a group nobody said who reads
        for value in entries.values():
            target = value.partition(":")[0]
            assert target in modules, f"entry point {group}: {value} names no module of the project"
            if target.split(".")[0] != host.split(".")[0]:  # inside one package a group is a table of its own
                arrows.setdefault(target, set()).add(host)
    return arrows


def template_arrows(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Generator package -> the modules its templates' output imports."""
    known = _resolver(modules)
    arrows: dict[str, set[str]] = {}
    for package in PACKAGES:
        for template in (ROOT / package).rglob("*.j2"):
            folder = template.parent
            while not (folder / "__init__.py").exists():
                folder = folder.parent
            owner = ".".join(folder.relative_to(ROOT).parts)
            for match in _TEMPLATE_IMPORT.finditer(template.read_text(encoding="utf-8")):
                target = known(match.group(1) or match.group(2))
                if target is not None and target != owner:
                    arrows.setdefault(owner, set()).add(target)
    return arrows


def arrow_graph() -> dict[str, set[str]]:
    """Every arrow: imports, named modules, entry points and template imports (a copy of the one computed per test
    process: the project's files do not change during a test run)."""
    return {module: set(targets) for module, targets in _arrow_graph().items()}


@functools.cache
def _arrow_graph() -> dict[str, set[str]]:
    modules = _module_files()
    graph = import_graph()
    for module, path in modules.items():
        graph[module] |= named_modules(path, modules) - {module}
    for extra in (entry_point_arrows(modules), template_arrows(modules)):
        for module, targets in extra.items():
            graph.setdefault(module, set()).update(targets - {module})
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


def test_no_module_reaches_itself_through_others() -> None:
    assert circles(arrow_graph()) == []


def test_packages_reach_only_down_the_layers() -> None:
    wrong = sorted({f"{m} reaches {d}" for m, deps in arrow_graph().items() for d in deps
                    if d.split(".")[0] != m.split(".")[0] and d.split(".")[0] not in ALLOWED[m.split(".")[0]]})
    assert wrong == []


def test_the_reference_layer_never_reaches_the_runner_above_it() -> None:
    wrong = sorted(f"{m} reaches {d}" for m, deps in arrow_graph().items() if m.startswith(REFERENCE_LAYER)
                   for d in deps if d.startswith(ABOVE_REFERENCE))
    assert wrong == []


def test_every_entry_point_group_is_read_by_the_module_said_to_host_it() -> None:
    for group, host in GROUP_HOSTS.items():
        path = _module_files()[host]
        assert f'"{group}"' in path.read_text(encoding="utf-8"), f"{host} does not read {group}"


def test_each_kind_of_arrow_is_seen() -> None:
    """The finders see what they are for: a string naming a module, an entry point, a template's import."""
    modules = _module_files()
    assert "conformance.kernels.registry" in named_modules(ROOT / "bench" / "kernels.py", modules)
    assert "opset.cli" in entry_point_arrows(modules)["conformance.models.cli"]
    assert "opset.graph.evaluator" in entry_point_arrows(modules)["conformance.backends.eager"]
    assert "opset.graph" in template_arrows(modules)["gen.ops"]
    docstring_only = ROOT / "opset" / "graph" / "eager.py"  # names conformance modules in its docstring only
    assert not {m for m in named_modules(docstring_only, modules) if m.startswith("conformance")}


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
