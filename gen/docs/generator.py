"""`gen docs`: the Markdown site under docs/ (built by mkdocs with the material theme).

    gen docs           # regenerate docs/ (only changed files are written)
    gen docs --check         # exit 1, naming the stale files, when docs/ is out of date
    gen docs --reports DIR   # conform JSON reports to render as support matrices

The generated pages are committed (the site builds from a fresh checkout without running Python
first); every one starts with the `@generated` header, and only files carrying it are ever
rewritten or deleted, so hand-written pages (`format.md`) and the reports stay untouched.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gen.docs.pages import MARKER, render_site
from gen.docs.reports import ReportError, read_reports
from gen.output import OutputError, Plan, apply_plan, check_writable, plan_files
from opset.errors import RegistryError
from opset.importers.anchors import AnchorError
from opset.load import load_registry

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "docs"
DEFAULT_REPORTS = DEFAULT_OUT / "reports"


def main(args: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="gen docs", description="Generate the Markdown docs site.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="docs folder (default: docs/)")
    parser.add_argument("--reports", type=Path, default=None,
                        help="folder of conform JSON reports (default: docs/reports/ when it exists)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when the docs are stale")
    options = parser.parse_args(list(args))
    if options.reports is not None and not options.reports.is_dir():  # no reports would delete the support pages
        print(f"gen docs: --reports {options.reports}: not a folder of conform reports", file=sys.stderr)
        return 2
    if not options.check:
        try:
            check_writable(options.out)
        except OutputError as e:
            print(f"gen docs: {e}", file=sys.stderr)
            return 2
    try:
        registry = load_registry()
        reports = read_reports(options.reports if options.reports is not None else DEFAULT_REPORTS)
    except (RegistryError, ReportError) as e:
        print(f"gen docs: {e}", file=sys.stderr)
        return 1
    try:
        plan = plan_files(options.out, render_site(registry, reports), marker=MARKER, pattern="*.md")
    except (OutputError, AnchorError) as e:  # the home page states the pins of a checkout's constraints.txt
        print(f"gen docs: {e}", file=sys.stderr)
        return 1
    if options.check:
        return _report_stale(plan, fix_command(options.out, options.reports))
    try:
        apply_plan(plan)
    except OutputError as e:
        print(f"gen docs: {e}", file=sys.stderr)
        return 1
    print(f"gen docs: {len(plan.write)} written, {len(plan.delete)} deleted, "
          f"{plan.unchanged} unchanged in {options.out}")
    return 0


def fix_command(out: Path, reports: Path | None) -> str:
    command = "gen docs"
    if out.resolve() != DEFAULT_OUT:
        command += f" --out {out}"
    if reports is not None:
        command += f" --reports {reports}"
    return command


def _report_stale(plan: Plan, command: str) -> int:
    if not plan.write and not plan.delete:
        print(f"gen docs --check: {plan.unchanged} files up to date")
        return 0
    for path in plan.write:
        print(f"stale: {path}", file=sys.stderr)
    for path in plan.delete:
        print(f"no longer generated: {path}", file=sys.stderr)
    print(f"gen docs --check: {len(plan.write) + len(plan.delete)} files out of date; run: {command}",
          file=sys.stderr)
    return 1
