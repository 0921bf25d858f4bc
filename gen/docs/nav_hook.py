"""A mkdocs hook (`hooks:` in mkdocs.yml): the sidebar grouped by domain, then by category, instead of one flat list.

mkdocs builds the navigation from the folders (one section per domain holding every op and opset page); this
regroups each domain's section into its index page, an "Opsets" section and one section per op category (the
category each generated op page states in its first lines: `**Category** Pool`). Search indexes every page as
before. It imports nothing of the project: mkdocs loads it by path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

_CATEGORY = re.compile(r"\*\*Category\*\* ([^·\n]+?)\s*(?:·|$)", re.MULTILINE)
_OPSET_PAGE = re.compile(r"opset-\d+\.md$")
HEAD_LINES = 12  # the category is stated near the top of an op page


def page_category(path: Path) -> str | None:
    """The category an op page states, or None for any other page."""
    with path.open(encoding="utf-8") as f:
        head = "".join(f.readline() for _ in range(HEAD_LINES))
    found = _CATEGORY.search(head)
    return found.group(1).strip() if found else None


def on_nav(nav: Navigation, config: Any, files: Any) -> Navigation:
    for item in nav.items:
        if isinstance(item, Section):
            _group_domain(item)
    return nav


def _group_domain(section: Section) -> None:
    pages = [c for c in section.children if isinstance(c, Page)]
    if len(pages) != len(section.children) or not any(p.file.src_uri.endswith("/index.md") for p in pages):
        return  # not a domain folder (its pages only, with an index)
    kept: list[Any] = []
    opsets: list[Page] = []
    categories: dict[str, list[Page]] = {}
    for page in pages:
        if _OPSET_PAGE.search(page.file.src_uri):
            opsets.append(page)
            continue
        category = page_category(Path(page.file.abs_src_path or ""))
        if category is None:
            kept.append(page)
        else:
            categories.setdefault(category, []).append(page)
    children: list[Any] = list(kept)
    if opsets:
        children.append(_section("Opsets", opsets, section))
    for category in sorted(categories):
        children.append(_section(category, sorted(categories[category], key=lambda p: p.file.src_uri.lower()),
                                 section))
    for child in kept:
        child.parent = section
    section.children = children


def _section(title: str, pages: list[Page], parent: Section) -> Section:
    group = Section(title, list(pages))
    group.parent = parent
    for page in pages:
        page.parent = group
    return group
