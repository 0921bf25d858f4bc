"""`gen classes [--out DIR] [--check]`: the typed op classes under `opset/ops/`.

Without `--check` every module is rendered and written where its text changed. With `--check` the
package is rendered into a temporary directory and compared with `--out`; stale files are listed with
the command that regenerates them, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gen.classes.files import stale_files, write_changed

if TYPE_CHECKING:  # the rest loads after the arguments parse: `gen classes --help` needs no Jinja2, no numpy
    from opset.registry import Registry

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "opset" / "ops"


def render_all(registry: Registry) -> dict[str, str]:
    """Every file of the package: relative path -> text."""
    from gen.classes.naming import module_name
    from gen.classes.plan import plan_domain
    from gen.classes.render import environment, render_domain_init, render_module, render_package_init

    env = environment()
    files = {"__init__.py": render_package_init(env, registry)}
    for domain in sorted(registry.domains):
        files[f"{module_name(registry.domains[domain])}/__init__.py"] = render_domain_init(env, registry, domain)
        for plan in plan_domain(registry, domain):
            files[plan.path] = render_module(env, plan)
    return files


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gen classes", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="package folder (default: opset/ops)")
    parser.add_argument("--check", action="store_true",
                        help="render into a temporary folder and fail when --out differs from it")
    parser.add_argument("--schemas", type=Path, default=None, help="registry folder (default: schemas/)")
    return parser


def fix_command(out: Path, schemas: Path | None) -> str:
    command = "gen classes"
    if out.resolve() != DEFAULT_OUT:
        command += f" --out {out}"
    if schemas is not None:
        command += f" --schemas {schemas}"
    return command


def main(args: Sequence[str]) -> int:
    options = _parser().parse_args(list(args))
    from gen.classes.naming import NamingError
    from gen.classes.spec import SpecError
    from opset.errors import RegistryError
    from opset.load import load_registry

    try:
        registry = load_registry(options.schemas)
        files = render_all(registry)
    except RegistryError as e:
        print(f"gen classes: the registry does not load:\n{e}", file=sys.stderr)
        return 1
    except (NamingError, SpecError) as e:
        print(f"gen classes: {e}", file=sys.stderr)
        return 1
    out: Path = options.out
    if options.check:
        with tempfile.TemporaryDirectory(prefix="gen-classes-") as tmp:
            write_changed(Path(tmp), files)
            stale = stale_files(out, Path(tmp))
        if stale:
            print(f"gen classes: {len(stale)} generated files under {out} are stale:", file=sys.stderr)
            for line in stale:
                print(f"  {line}", file=sys.stderr)
            print(f"fix with: {fix_command(out, options.schemas)}", file=sys.stderr)
            return 1
        print(f"gen classes: {len(files)} files under {out} are current")
        return 0
    written, removed = write_changed(out, files)
    for rel in written:
        print(f"wrote {out / rel}")
    for rel in removed:
        print(f"removed {out / rel}")
    print(f"gen classes: {len(files)} files, {len(written)} written, {len(removed)} removed")
    return 0
