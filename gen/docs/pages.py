"""Render every page of the docs site from the registry (and conform reports) with the Jinja2 templates.

    pages = render_site(registry, reports)     # {"ai.onnx/AveragePool.md": "<!-- @generated ...", ...}

Paths are relative to the docs folder. Op pages are `<domain>/<Op>.md` with one `#v<N>` anchor per
version; opset pages `<domain>/opset-<NN>.md` (zero-padded so they sort in order); the Tengine conversion
table `tengine/conversion.md`; support pages `support/index.md`, `support/domain-<domain>.md`, `support/<backend>.md`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2

from gen.docs import conversion, support, views
from gen.docs.diff import format_value
from gen.docs.domain_text import domain_rows
from gen.docs.reports import Report
from gen.header import header, marker
from gen.ops.naming import class_name
from opset.formula import Formula
from opset.importers.anchors import pinned
from opset.model import Attribute, OpVersion, Param
from opset.registry import Registry
from opset.show import precision_text

MARKER = marker("gen/docs", "markdown")  # how the generator recognises its pages
HEADER = header("gen/docs", "gen docs", "markdown")
# relative links in ONNX's own op docs point into the onnx repository's docs/ folder
EXTERNAL_DOC_LINKS = {
    "Broadcasting.md": "https://github.com/onnx/onnx/blob/main/docs/Broadcasting.md",
    "IR.md": "https://github.com/onnx/onnx/blob/main/docs/IR.md",
}
_EXTERNAL_LINK = re.compile(r"\]\((" + "|".join(re.escape(k) for k in EXTERNAL_DOC_LINKS) + r")(#[^)]*)?\)")
# statuses as words (a failure in bold): emoji render as empty boxes where the reader's browser has no emoji font
STATUS_MARKS = {"pass": "pass", "fail": "**fail**", "unsupported": "unsupported", "xfail": "xfail",
                "xpass": "**xpass**", "ambiguous": "ambiguous"}


def render_site(registry: Registry, reports: list[Report]) -> dict[str, str]:
    env = _environment(registry)
    cells = support.report_cells(reports)
    env.globals.update(version_support=lambda v: support.version_support(v, reports, cells),
                       support_counts=support_counts, python_function=lambda v: python_function(registry, v))
    pages: dict[str, str] = {"index.md": _render(env, "index.md.j2", registry=registry, reports=reports,
                                                 counts=_domain_counts(registry), anchors=pinned(),
                                                 hinted=[op for op in registry if op.drawn_by_hint])}
    for domain in registry.domains.values():
        ops = [op for op in registry if op.domain == domain.name]
        pages[f"{domain.name}/index.md"] = _render(env, "domain.md.j2", domain=domain, ops=ops,
                                                   opsets=range(1, domain.max_opset + 1))
        for n in range(1, domain.max_opset + 1):
            pages[f"{domain.name}/{opset_page(registry, domain.name, n)}"] = _render(
                env, "opset.md.j2", domain=domain, opset=n, contents=registry.opset_contents(domain.name, n),
                changes=views.opset_changes(registry, domain.name, n))
        for op in ops:
            pages[f"{domain.name}/{op.name}.md"] = _render(
                env, "op.md.j2", op=op, domain=domain, versions=list(reversed(views.version_views(op, domain))))
    if "tengine" in registry.domains:
        pages["tengine/conversion.md"] = _render(env, "tengine_conversion.md.j2",
                                                 rows=conversion.conversion_rows(registry))
    if reports:
        tables = support.domain_tables(registry, reports, cells)
        pages["support/index.md"] = _render(env, "support_index.md.j2", reports=reports,
                                            totals=support.domain_totals(tables, reports))
        for domain_name, rows in tables.items():
            pages[f"support/{domain_page(domain_name)}"] = _render(env, "support_domain.md.j2", reports=reports,
                                                                   domain=domain_name, rows=rows)
        for report in reports:
            pages[f"support/{backend_slug(report.backend)}.md"] = _render(
                env, "support.md.j2", report=report, failures=support.backend_failures(report),
                xpasses=support.backend_failures(report, ("xpass",)),
                totals={d: t[reports.index(report)] for d, t in support.domain_totals(tables, reports).items()})
    return pages


def python_function(registry: Registry, version: OpVersion) -> str | None:
    """`opset.ops.ai_onnx.v11.AveragePool`: the op function `gen ops` writes for this version (in the
    module of the opset that introduced it), or None for a version no opset resolves to (a removed draft op)."""
    found = registry.try_resolve(version.domain, version.name, version.since)
    if found is None or found.since != version.since:
        return None
    domain = registry.domains[version.domain]
    return f"opset.ops.{domain.module}.v{version.since}.{class_name(version.domain, version.name)}"


def support_counts(counts: dict[str, int] | None) -> str:
    """`3/4 pass, **1 fail**`: a backend's cells (of an op version, a domain) by status, in a few words; "—" where
    the report lacks them."""
    if counts is None:
        return "—"
    total = sum(counts.values())
    words = [f"{counts.get('pass', 0)}/{total} pass"]
    for status in ("fail", "xpass", "ambiguous", "xfail", "unsupported"):
        n = counts.get(status, 0)
        if n:
            text = f"{n} {support.SHORT[status]}"
            words.append(f"**{text}**" if status in ("fail", "xpass") else text)
    return ", ".join(words)


def domain_page(domain: str) -> str:
    """The support page of a domain, beside the backends' pages: `domain-ai.onnx.md`."""
    return f"domain-{domain}.md"


def backend_slug(backend: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", backend).strip("-") or "backend"


def _environment(registry: Registry) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, autoescape=False)
    env.filters.update(cell=cell, code=code, value=format_value, default_text=default_text,
                       param_flags=param_flags, one_line=one_line, plain=plain, values=values_text,
                       formula=wrap_formula, precision_text=precision_text)
    env.globals.update(HEADER=HEADER, STATUS_MARKS=STATUS_MARKS, backend_slug=backend_slug, domain_page=domain_page,
                       layout_rows=views.layout_rows, example_rows=views.example_rows,
                       opset_page=lambda domain, n: opset_page(registry, domain, n),
                       op_link=lambda domain, name, since: op_link(registry, domain, name, since),
                       domain_rows=lambda version: domain_rows(version, code))
    return env


def _render(env: jinja2.Environment, template: str, **context: Any) -> str:
    text = env.get_template(template).render(**context)
    text = _EXTERNAL_LINK.sub(lambda m: f"]({EXTERNAL_DOC_LINKS[m.group(1)]}{m.group(2) or ''})", text)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


def _domain_counts(registry: Registry) -> dict[str, tuple[int, int]]:
    counts: dict[str, tuple[int, int]] = {}
    for op in registry:
        ops, versions = counts.get(op.domain, (0, 0))
        counts[op.domain] = (ops + 1, versions + len(op.versions))
    return counts


def op_link(registry: Registry, domain: str, name: str, since: int | None = None, *, prefix: str = "../") -> str:
    """A relative link from a page one folder deep to an op (and version) page, or '' when there is none."""
    if (domain, name) not in registry.ops:
        return ""
    anchor = f"#v{since}" if since is not None else ""
    return f"{prefix}{domain}/{name}.md{anchor}"


def opset_page(registry: Registry, domain: str, opset: int) -> str:
    """`opset-07.md`: padded to the width of the domain's newest opset, so file order is opset order."""
    width = len(str(registry.domains[domain].max_opset))
    return f"opset-{opset:0{width}d}.md"


def one_line(text: str) -> str:
    return " ".join(text.split())


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~])")


def plain(text: Any) -> str:
    """Text shown as it is (a backend's message): one line, every character Markdown or HTML would read escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(str(text)))


def cell(text: Any) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped."""
    return one_line(str(text)).replace("|", "\\|")


def code(value: Any) -> str:
    """Inline code that survives backticks in the value and table cells."""
    text = value.text if isinstance(value, Formula) else value if isinstance(value, str) else format_value(value)
    text = one_line(text).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def values_text(values: Any) -> str:
    return ", ".join(code(v) for v in values)


def default_text(a: Attribute) -> str:
    if a.required:
        return "—"
    if a.default_expr is not None:
        return code(a.default_expr.text)
    if a.default is None:
        return "none"
    return code(a.default)


def param_flags(p: Param) -> str:
    flags = []
    if p.optional:
        flags.append("optional")
    if p.variadic:
        flags.append(f"variadic (≥ {p.min_arity}{'' if p.homogeneous else ', mixed types'})")
    return ", ".join(flags) or "required"



FORMULA_WIDTH = 88


def wrap_formula(expr: Formula) -> str:
    """A long formula (its source text) on several lines, broken before each top-level `if`/`else` and indented."""
    text = one_line(expr.text)
    if len(text) <= FORMULA_WIDTH:
        return text
    lines, start, depth, quote = [], 0, 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(" else ", i):
            lines.append(text[start:i])
            start = i + 1
    lines.append(text[start:])
    return "\n    ".join(lines)
