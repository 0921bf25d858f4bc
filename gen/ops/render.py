"""Render module plans to source text with the Jinja2 templates next to this file."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import jinja2

from gen.header import header, marker
from gen.ops.naming import module_name
from gen.ops.plan import ModulePlan
from gen.ops.spec import py_literal
from opset.registry import Registry

MARKER = marker("gen/ops", "python")  # how the generator recognises its files
FORMER_MARKERS = (marker("gen/classes", "python"),)  # its files before `gen classes` became `gen ops`
HEADER = header("gen/ops", "gen ops", "python")
LINE_LENGTH = 120
_WRAP = LINE_LENGTH - 4  # room for the closing quotes and a margin
_ARGUMENT_INDENT = " " * 4


def _doc(text: str, indent: int, hanging: int) -> str:
    """Docstring text, wrapped; backslashes and triple quotes escaped."""
    clean = " ".join(str(text).split()).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return textwrap.fill(clean, width=_WRAP, initial_indent=" " * indent, subsequent_indent=" " * hanging,
                         break_long_words=False, break_on_hyphens=False)


def _declare(declaration: str) -> str:
    """One argument of a signature, on its own line; a long Literal is split one value per line."""
    line = f"{_ARGUMENT_INDENT}{declaration},"
    if len(line) <= LINE_LENGTH or "Literal[" not in declaration:
        return line
    head, rest = declaration.split("Literal[", 1)
    values, tail = rest.split("]", 1)
    inner = [f"{_ARGUMENT_INDENT}    {v.strip()}," for v in values.split(", ")]
    return "\n".join([f"{_ARGUMENT_INDENT}{head}Literal[", *inner, f"{_ARGUMENT_INDENT}]{tail},"])


def _tuple(items: tuple[str, ...]) -> str:
    if len(items) == 1:
        return f"({py_literal(items[0])},)"
    return "(" + ", ".join(py_literal(i) for i in items) + ")"


def _dict(items: dict[str, str]) -> str:
    return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in items.items()) + "}"


def _fit(text: str, indent: int, before: int = 0, after: int = 1) -> str:
    """A parenthesised tuple of names or literals as written at column `indent` (plus `before` characters on its
    line ahead of it and `after` behind it); one item per line where the one-line form is too long."""
    if indent + before + len(text) + after <= LINE_LENGTH or not (text.startswith("(") and text.endswith(")")):
        return text
    items = [i.strip() for i in text[1:-1].split(", ") if i.strip().rstrip(",")]
    inner = "".join(f"\n{' ' * (indent + 4)}{i.rstrip(',')}," for i in items)
    return f"({inner}\n{' ' * indent})"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent), trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                             autoescape=False)
    env.filters.update(doc=_doc, declare=_declare, pystr=py_literal, pytuple=_tuple, fit=_fit, pydict=_dict)
    return env


def render_module(env: jinja2.Environment, plan: ModulePlan) -> str:
    needs: set[str] = set()
    for cls in plan.classes:
        needs |= cls.imports
    stdlib = []
    if "Sequence" in needs:
        stdlib.append("from collections.abc import Sequence")
    if "Literal" in needs:
        stdlib.append("from typing import Literal")
    runtime = sorted({"apply", "op"} | ({"Array", "V", "Value"} & needs), key=lambda n: (not n[0].isupper(), n))
    imports: dict[str, list[str]] = {
        "stdlib": stdlib,
        "third_party": ["import onnx"] if "onnx" in needs else [],
        "first_party": [f"from opset.graph import {', '.join(runtime)}"] if plan.classes else [],
        "local": _local_imports(plan),
    }
    total = len(plan.classes) + len(plan.reexports)
    return _finish(env.get_template("module.j2").render(
        header=HEADER, domain=plan.domain, opset=plan.opset, total=total, classes=plan.classes,
        reexports=plan.reexports, imports=imports if any(imports.values()) else None))


def _local_imports(plan: ModulePlan) -> list[str]:
    """Re-exports, ordered as ruff's isort wants them: furthest package first, then by module and name."""
    def order(r: Any) -> tuple[int, str, int, str]:
        level = len(r.module) - len(r.module.lstrip("."))
        # isort's order-by-type: CONSTANT_CASE names (LRN) before CamelCase ones, then case-insensitive
        kind = 0 if r.name.isupper() else 1
        return (-level, r.module.lstrip("."), kind, r.name.lower())
    return [f"from {r.module} import {r.name} as {r.name}" for r in sorted(plan.reexports, key=order)]


def render_domain_init(env: jinja2.Environment, registry: Registry, domain: str) -> str:
    d = registry.domains[domain]
    return _finish(env.get_template("domain.j2").render(header=HEADER, name=d.name, description=d.description,
                                                         max_opset=d.max_opset, module=module_name(d)))


def render_package_init(env: jinja2.Environment, registry: Registry) -> str:
    domains = [{"module": module_name(d), "name": d.name, "max_opset": d.max_opset, "extends": d.extends}
               for d in sorted(registry.domains.values(), key=lambda d: d.name)]
    return _finish(env.get_template("package.j2").render(header=HEADER, domains=domains))


def _finish(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"
