"""`gen tests --out DIR [--op GLOB] [--domain D]`: one readable pytest module per op, from `op_test.py.j2`.

Each module holds the op's (version, dtype) cells as parametrized tests of their drawn cases, one law case per cell
of a version whose outputs are drawn at random (its `random` key), and its YAML examples as explicit tests; it runs
under `pytest -p conformance.runner.plugin --backend X`, whose `conform` fixture runs each test on the core
`conform` itself uses (the module imports nothing of `conformance`).
A file is written only when its content changed.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import jinja2

from gen.header import header
from gen.output import write_if_changed
from opset.cells import cell_dtypes, example_dtype
from opset.model import OpSchema, OpVersion
from opset.model import module_name as domain_module

TEMPLATE = "op_test.py.j2"


def module_name(op: OpSchema) -> str:
    return f"test_{domain_module(op.domain)}__{op.name}.py"


def _identifier(name: str) -> str:
    return re.sub(r"\W+", "_", name).strip("_").lower() or "op"


def resolvable_versions(op: OpSchema) -> list[OpVersion]:
    """The versions some opset resolves to: a removed op's versions from its removal on resolve nowhere."""
    status = op.status
    if status.state != "removed":
        return list(op.versions)
    cut = status.removed_at_opset
    return [] if cut is None else [v for v in op.versions if v.since < cut]


def render_module(op: OpSchema, environment: jinja2.Environment, out: Path) -> str:
    """The test module of `op`; its header names the command that rewrites it into `out`."""
    cells, unsupported, examples, laws = [], [], [], []
    versions = resolvable_versions(op)
    for version in versions:
        drawable, other = cell_dtypes(version)
        cells += [(version.since, d) for d in drawable]
        laws += [(version.since, d) for d in drawable] if version.random is not None else []
        unsupported += [(version.since, d) for d in other]
        examples += [(version.since, e.name, example_dtype(version, e)) for e in version.examples]
    command = shlex.join(["gen", "tests", "--out", str(out), "--domain", op.domain, "--op", op.name])
    return environment.get_template(TEMPLATE).render(
        header=header("conformance/test_modules", command, "python"),
        domain=op.domain, op=op.name, versions=[v.since for v in versions], filename=module_name(op),
        test_name=_identifier(op.name), cells=cells, unsupported=unsupported, examples=examples, laws=laws)


def select_ops(ops: Iterable[OpSchema], patterns: Sequence[str], domains: Sequence[str]) -> list[OpSchema]:
    """The ops matching the name globs and domains (all of them when none are given)."""
    from conformance.runner.config import in_selection

    return [op for op in ops if in_selection(op.domain, op.name, patterns, domains)]


def generate(out: Path, ops: Iterable[OpSchema]) -> list[Path]:
    """Write the modules of `ops` into `out`; returns every module path (written or already current)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent),
                                     trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                                     undefined=jinja2.StrictUndefined, autoescape=False)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for op in ops:
        path = out / module_name(op)
        text = render_module(op, environment, out)
        write_if_changed(path, text)
        paths.append(path)
    return paths


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gen tests", description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="directory to write the test modules into")
    parser.add_argument("--op", action="append", help="op name glob (repeatable, or comma-separated)")
    parser.add_argument("--domain", action="append", help="registry domain (repeatable)")
    options = parser.parse_args(args)
    from opset.errors import RegistryError
    from opset.load import load_registry

    try:
        registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    from conformance.runner.config import split_patterns

    ops = select_ops(registry, split_patterns(options.op), options.domain or [])
    if not ops:
        print("gen tests: no op matches the selection", file=sys.stderr)
        return 2
    paths = generate(options.out, ops)
    print(f"gen tests: {len(paths)} modules in {options.out}")
    return 0
