"""A mkdocs hook (`hooks:` in mkdocs.yml): the sidebar grouped by domain, then by category, instead of one flat list.

mkdocs builds the navigation from the folders (one section per domain holding every op and opset page); this
regroups each domain's section into its index page, an "Opsets" section and one section per op category (the
category each generated op page states in its first lines: `**Category** Pool`). Search indexes every page as
before. It imports nothing of the project: mkdocs loads it by path.

It also names things as they are written: a domain's section is its folder's name (`ai.onnx`, where mkdocs would
print "Ai.onnx"), and every page's title is its first `# ` heading (a generated page starts with its `@generated`
comment, so mkdocs would fall back to the file name: "Index", "Onnx reference").
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


_HEADING = re.compile(r"^# (.+?)\s*$", re.MULTILINE)


def page_title(path: Path) -> str | None:
    """The page's first `# ` heading (outside fenced code), or None."""
    with path.open(encoding="utf-8") as f:
        fenced = False
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and (found := _HEADING.match(line)):
                return found.group(1)
    return None


def on_nav(nav: Navigation, config: Any, files: Any) -> Navigation:
    for page in nav.pages:
        title = page_title(Path(page.file.abs_src_path or "")) if page.file.abs_src_path else None
        if title is not None:
            page.title = title
    for item in nav.items:
        if isinstance(item, Section):
            _name_as_written(item)
            _group_domain(item)
    return nav


def on_page_markdown(markdown: str, page: Page, config: Any, files: Any) -> str:
    """The page title (the browser tab's `<title>`) from the first heading, as in the sidebar."""
    found = _HEADING.search(markdown)
    if found:
        page.title = found.group(1)
    return markdown


def _name_as_written(section: Section) -> None:
    """A domain's section keeps the domain's name as its index page writes it (mkdocs capitalises the folder's
    name: `Ai.onnx`, `Tengine`); other sections keep mkdocs' title."""
    for page in section.children:
        if isinstance(page, Page) and page.file.src_uri.endswith("/index.md"):
            folder = page.file.src_uri.split("/")[0]
            if page.title == folder:
                section.title = folder


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
