"""`gen formulas [--out DIR] [--check]`: the formulas of every op version as Python source, under
`opset/formula/generated/`.

One module per op (`<domain module>/<Op>.py`): one function per distinct formula tree of the op (`gen/formulas/emit.py`
writes it from the checked tree, never from the YAML text), and per version the fingerprint of its inference formulas
with their functions in order and what each formula reads (its free names and the functions it calls, as sorted
tuples of string literals), so that validation learns those facts without parsing (`opset.generated_formulas`).
Without `--check` the files are written where their text changed; with `--check` they are rendered into a temporary
folder and compared with `--out`, and stale files are listed with the command that regenerates them (exit code 1).
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gen.header import header, marker
from gen.ops.naming import NamingError
from gen.output import OutputError, apply_plan, plan_files

if TYPE_CHECKING:  # the registry, the formula language and the emitter load after the arguments parse
    from opset.formula.nodes import Node
    from opset.model import OpVersion
    from opset.registry import Registry

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "opset" / "formula" / "generated"
MARKER = marker("gen/formulas", "python")
_MODULE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def op_module(op: str) -> str:
    """The module name of an op's file: its name where that is a plain identifier, else refused."""
    if not _MODULE.fullmatch(op) or keyword.iskeyword(op) or op == "__init__":
        raise NamingError(f"op '{op}' gives no usable module name for its generated formulas")
    return op


class FunctionTable:
    """Every distinct formula tree of the registry written once: in the module of the first op (in the files' sorted
    order) whose versions use it; a later op's module imports it from there (the Reduce* family, GRU and LSTM, the
    fused matmuls share most of their formulas). None for a tree the emitter cannot write (it runs compiled)."""

    def __init__(self) -> None:
        self.owner: dict[Node, tuple[str, str] | None] = {}  # tree -> (module, function name), or None
        self.sources: dict[str, list[str]] = {}  # module -> the sources of the functions it owns

    def name_in(self, module: str, tree: Node) -> tuple[str, str] | None:
        """Where `tree`'s function lives, emitting it into `module` when no module has it yet."""
        from gen.formulas.emit import NotEmitted, function_source

        if tree not in self.owner:
            own = self.sources.setdefault(module, [])
            name = f"_f{len(own)}"
            try:
                source = function_source(name, tree)
                compile(source, "<generated formula>", "exec")  # nesting limits: such a tree runs compiled
            except (NotEmitted, SyntaxError, RecursionError, MemoryError):
                self.owner[tree] = None
            else:
                own.append(source)
                self.owner[tree] = (module, name)
        return self.owner[tree]


def render_op(versions: Sequence[OpVersion], module: str, table: FunctionTable, command: str) -> str:
    """The generated module `module` (dotted, under the generated package) of one op's versions."""
    from opset.formula.emitted import VOCABULARY
    from opset.generated_formulas import GENERATED_PACKAGE, fingerprint, inference_formulas

    imported: dict[tuple[str, str], str] = {}  # (module, name) elsewhere -> its local name here
    entries: list[str] = []
    for version in versions:
        formulas = inference_formulas(version)
        names = []
        facts = "".join(f"({tuple(sorted(f.names))!r}, {tuple(sorted(f.calls))!r}), " for f in formulas)
        for formula in formulas:
            where = table.name_in(module, formula.tree)
            if where is None:
                names.append("None")
            elif where[0] == module:
                names.append(where[1])
            else:
                names.append(imported.setdefault(where, f"_i{len(imported)}"))
        row = "".join(f"{n}, " for n in names)
        entries.append(f"    {version.since!r}: ({fingerprint(formulas)!r}, ({row}), ({facts})),")
    body = "\n\n".join(table.sources.get(module, []))
    used = sorted(n for n in ("Facts", "Generated", *VOCABULARY)
                  if re.search(rf"\b{n}\b", body) or n in ("Facts", "Generated"))
    shared = [f"from {GENERATED_PACKAGE}.{where} import {name} as {local}"
              for (where, name), local in sorted(imported.items(), key=lambda item: item[1])]
    head = [header("gen/formulas", command, "python"),
            '"""Formulas of the op `OP` written as Python (gen formulas): see opset/generated_formulas.py."""',
            "", "from __future__ import annotations", "",
            f"from opset.formula.emitted import {', '.join(used)}", *shared, "",
            f"OP = ({versions[0].domain!r}, {versions[0].name!r})", "", ""]
    tail = ["VERSIONS: dict[int, tuple[str, tuple[Generated | None, ...], tuple[Facts, ...]]] = {", *entries, "}", ""]
    return "\n".join(head) + (body + "\n\n" if body else "") + "\n".join(tail)


def render_all(registry: Registry, command: str = "gen formulas") -> dict[str, str]:
    """Every file of the package: relative path -> text."""
    from gen.ops.naming import module_name

    by_op: dict[tuple[str, str], list[OpVersion]] = {}
    for version in registry.all_versions():
        by_op.setdefault((version.domain, version.name), []).append(version)
    modules = {key: f"{module_name(registry.domains[key[0]])}.{op_module(key[1])}" for key in by_op}
    table = FunctionTable()
    files: dict[str, str] = {}
    for key in sorted(by_op, key=modules.__getitem__):  # a module imports only from modules before it: no cycle
        versions = sorted(by_op[key], key=lambda v: v.since)
        files[modules[key].replace(".", "/") + ".py"] = render_op(versions, modules[key], table, command)
    for package in sorted({m.split(".")[0] for m in modules.values()}):
        files[f"{package}/__init__.py"] = f"{header('gen/formulas', command, 'python')}\n"
    index = [header("gen/formulas", command, "python"),
             '"""The generated formula modules (gen formulas), by (domain, op): see opset/generated_formulas.py."""',
             "", "MODULES: dict[tuple[str, str], str] = {",
             *(f"    {key!r}: {value!r}," for key, value in sorted(modules.items())), "}", ""]
    files["__init__.py"] = "\n".join(index)
    return files


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gen formulas", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="package folder (default: opset/formula/generated)")
    parser.add_argument("--check", action="store_true",
                        help="render into a temporary folder and fail when --out differs from it")
    parser.add_argument("--schemas", type=Path, default=None, help="registry folder (default: schemas/)")
    return parser


def fix_command(out: Path, schemas: Path | None) -> str:
    command = "gen formulas"
    if out.resolve() != DEFAULT_OUT:
        command += f" --out {out}"
    if schemas is not None:
        command += f" --schemas {schemas}"
    return command


def main(args: Sequence[str]) -> int:
    options = _parser().parse_args(list(args))
    from opset.errors import RegistryError
    from opset.load import load_registry

    try:
        registry = load_registry(options.schemas)
        files = render_all(registry)
    except RegistryError as e:
        print(f"gen formulas: the registry does not load:\n{e}", file=sys.stderr)
        return 1
    except NamingError as e:
        print(f"gen formulas: {e}", file=sys.stderr)
        return 1
    out: Path = options.out
    try:
        plan = plan_files(out, files, marker=MARKER, pattern="*.py")
    except OutputError as e:
        print(f"gen formulas: {e}", file=sys.stderr)
        return 1
    if options.check:
        stale = plan.stale()
        if stale:
            print(f"gen formulas: {len(stale)} generated files under {out} are stale:", file=sys.stderr)
            for line in stale:
                print(f"  {line}", file=sys.stderr)
            print(f"fix with: {fix_command(out, options.schemas)}", file=sys.stderr)
            return 1
        print(f"gen formulas: {len(files)} files under {out} are current")
        return 0
    try:
        apply_plan(plan)
    except OutputError as e:
        print(f"gen formulas: {e}", file=sys.stderr)
        return 1
    for path in plan.write:
        print(f"wrote {path}")
    for path in plan.delete:
        print(f"removed {path}")
    print(f"gen formulas: {len(files)} files, {len(plan.write)} written, {len(plan.delete)} removed")
    return 0
