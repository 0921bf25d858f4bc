"""`gen ops [--out DIR] [--check]`: the typed op functions under `opset/ops/` (`gen classes` is the same command
under its former name).

Without `--check` every module is rendered and written where its text changed, and generated modules no longer
produced are removed. With `--check` nothing is written: stale files are listed with the command that regenerates
them, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gen.output import OutputError, apply_plan, plan_files

if TYPE_CHECKING:  # the rest loads after the arguments parse: `gen ops --help` needs no Jinja2, no numpy
    from opset.registry import Registry

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "opset" / "ops"


def render_all(registry: Registry) -> dict[str, str]:
    """Every file of the package: relative path -> text."""
    from gen.ops.naming import module_name
    from gen.ops.plan import plan_domain
    from gen.ops.render import environment, render_domain_init, render_module, render_package_init

    env = environment()
    files = {"__init__.py": render_package_init(env, registry)}
    for domain in sorted(registry.domains):
        files[f"{module_name(registry.domains[domain])}/__init__.py"] = render_domain_init(env, registry, domain)
        for plan in plan_domain(registry, domain):
            files[plan.path] = render_module(env, plan)
    return files


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gen ops", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="package folder (default: opset/ops)")
    parser.add_argument("--check", action="store_true",
                        help="render into a temporary folder and fail when --out differs from it")
    parser.add_argument("--schemas", type=Path, default=None, help="registry folder (default: schemas/)")
    return parser


def fix_command(out: Path, schemas: Path | None) -> str:
    command = "gen ops"
    if out.resolve() != DEFAULT_OUT:
        command += f" --out {out}"
    if schemas is not None:
        command += f" --schemas {schemas}"
    return command


def main(args: Sequence[str]) -> int:
    options = _parser().parse_args(list(args))
    from gen.ops.naming import NamingError
    from gen.ops.render import FORMER_MARKERS, MARKER
    from gen.ops.spec import SpecError
    from opset.errors import RegistryError
    from opset.load import load_registry

    out: Path = options.out
    try:
        registry = load_registry(options.schemas)
        plan = plan_files(out, render_all(registry), marker=MARKER, pattern="*.py", former=FORMER_MARKERS)
    except RegistryError as e:
        print(f"gen ops: the registry does not load:\n{e}", file=sys.stderr)
        return 1
    except (NamingError, SpecError, OutputError) as e:
        print(f"gen ops: {e}", file=sys.stderr)
        return 1
    files = plan.unchanged + len(plan.write)
    if options.check:
        stale = plan.stale()
        if stale:
            print(f"gen ops: {len(stale)} generated files under {out} are stale:", file=sys.stderr)
            for line in stale:
                print(f"  {line}", file=sys.stderr)
            print(f"fix with: {fix_command(out, options.schemas)}", file=sys.stderr)
            return 1
        print(f"gen ops: {files} files under {out} are current")
        return 0
    apply_plan(plan)
    for path in plan.write:
        print(f"wrote {path}")
    for path in plan.delete:
        print(f"removed {path}")
    print(f"gen ops: {files} files, {len(plan.write)} written, {len(plan.delete)} removed")
    return 0
