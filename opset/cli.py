"""`opset`: list, show and lint the registry, import from onnx and onnxruntime, validate models."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from opset.broken_pipe import ends_quietly_on_broken_pipe

if TYPE_CHECKING:
    from opset.plugins import PluggedEntry


def console() -> int:
    """The `opset` console script: `main`, and for a command in `_ENDS_AT_ONCE` the process ends as soon as its output
    is flushed (`opset.process_end`)."""
    code = main()
    if len(sys.argv) > 1 and sys.argv[1] in _ENDS_AT_ONCE:
        from opset.process_end import end_process, observed

        if not observed():
            end_process(code)
    return code


@ends_quietly_on_broken_pipe
def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in _PASSTHROUGH:
        return _PASSTHROUGH[args[0]](args[1:])
    if args and args[0] not in _BUILT_IN:  # look for a plugged-in command only when no built-in one is asked for
        plugged = _plugged_commands()
        if args[0] in plugged:
            command: Callable[[list[str]], int] = plugged[args[0]].load()
            return command(args[1:])
    # a built-in command parses without the plugged-in ones (finding those reads every installed package's metadata);
    # `opset --help`, no command and an unknown one list them
    parser = _parser(plugged=not args or args[0] not in _PARSED_COMMANDS)
    ns = parser.parse_args(args)
    if not hasattr(ns, "run"):
        parser.print_help()
        return 2
    from opset.errors import RegistryError, ResolutionError  # after parsing: `--help` needs neither

    try:
        code: int = ns.run(ns)
        return code
    except RegistryError as e:
        print(e, file=sys.stderr)
        print(f"{len(e.problems)} problem(s) in the registry", file=sys.stderr)
        return 1
    except ResolutionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def _parser(plugged: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opset", description=__doc__)
    sub = p.add_subparsers(metavar="COMMAND")

    ls = sub.add_parser("list", help="list ops (optionally what one opset of a domain contains)")
    ls.add_argument("--domain", default=None)
    ls.add_argument("--opset", type=_opset_number, default=None)
    ls.set_defaults(run=_cmd_list)

    show = sub.add_parser("show", help="the resolved signature of one op")
    show.add_argument("op")
    show.add_argument("--domain", default="ai.onnx")
    show.add_argument("--opset", type=_opset_number, default=None, help="default: the domain's newest opset")
    show.set_defaults(run=_cmd_show)

    lint = sub.add_parser("lint", help="check registry files; exit 1 with located errors")
    lint.add_argument("paths", nargs="*", type=Path,
                      help="extra op files or folders to check with the registry (default: the registry alone)")
    lint.set_defaults(run=_cmd_lint)

    for name, text in (("import-onnx", "write or refresh ai.onnx YAML from onnx.defs"),
                       ("import-ort", "write or refresh com.microsoft YAML from onnxruntime"),
                       ("validate", "validate an ONNX model or a Tengine .tmfile against the registry"),
                       ("inspect", "what a Tengine .tmfile holds: counts, op histogram, nodes with parameters"),
                       ("convert", "a Tengine .tmfile to an ai.onnx model, or ONNX to a .tmfile, through maps_to"),
                       ("infer", "write inferred types and shapes into a model as value_info")):
        sub.add_parser(name, help=text, add_help=False)
    for name, ep in sorted(_plugged_commands().items() if plugged else ()):
        sub.add_parser(name, help=f"(from {ep.value.split(':')[0]}) {_PLUGGED_HELP.get(name, '')}", add_help=False)
    return p


def _opset_number(text: str) -> int:
    """An opset is a positive int: `--opset 0` would list nothing and exit 0, as if the opset were empty."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: '{text}'") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"an opset is 1 or more, not {number}")
    return number


_PARSED_COMMANDS = frozenset({"list", "show", "lint"})
_BUILT_IN = _PARSED_COMMANDS | {"-h", "--help"}
# commands that are done when they return: every file they wrote closed, no temporary file, thread, child process or
# exit handler left (a plugged-in command, `lint` and the importers are not listed: they may hold any of these)
_ENDS_AT_ONCE = frozenset({"validate", "infer", "inspect", "list", "show"})
COMMAND_GROUP = "opset.commands"  # commands other packages add (`run` comes from conformance: it needs kernels)
_PLUGGED_HELP = {"run": "run a whole ONNX model (or a Tengine .tmfile) on the reference kernels"}


def _plugged_commands() -> dict[str, PluggedEntry]:
    from opset.plugins import entry_points_of  # not at the top: `opset validate` needs no plugged-in command

    return entry_points_of(COMMAND_GROUP)


def _cmd_list(ns: argparse.Namespace) -> int:
    from opset.errors import ResolutionError
    from opset.load import load_registry

    reg = load_registry()
    if ns.opset is not None:
        domain = reg.canonical_domain(ns.domain or "ai.onnx")
        newest = reg.domains[domain].max_opset
        if ns.opset > newest:  # listing would quietly give the newest opset's contents instead
            raise ResolutionError(f"{domain} has no opset {ns.opset}; its newest opset is {newest}")
        for v in reg.opset_contents(domain, ns.opset):
            via = "" if v.domain == domain else f"  (via {v.domain})"
            print(f"{v.name:24} {v.domain}@{v.since}{via}")
        return 0
    domains = [reg.canonical_domain(ns.domain)] if ns.domain else sorted(reg.domains)
    for d in domains:
        for (dom, name), op in reg.ops.items():
            if dom == d:
                since = ", ".join(str(v.since) for v in op.versions)
                state = "" if op.status.state == "active" else f"  [{op.status.state}]"
                print(f"{d:18} {name:24} versions {since}{state}")
    return 0


def _cmd_show(ns: argparse.Namespace) -> int:
    from opset.errors import ResolutionError
    from opset.load import load_registry
    from opset.show import render_version

    reg = load_registry()
    domain = reg.canonical_domain(ns.domain)
    newest = reg.domains[domain].max_opset
    if ns.opset is not None and ns.opset > newest:  # resolving would quietly show the newest version instead
        raise ResolutionError(f"{domain} has no opset {ns.opset}; its newest opset is {newest}")
    opset = ns.opset if ns.opset is not None else newest
    op = reg.ops.get((domain, ns.op))
    if op is not None and op.status.state == "removed" and reg.try_resolve(domain, ns.op, opset) is None:
        # a removed op resolves in no opset, but its last definition is still worth showing
        print(render_version(reg, op.versions[-1], asked=(domain, opset)))
        return 0
    version = reg.resolve(domain, ns.op, opset)
    print(render_version(reg, version, asked=(domain, opset)))
    return 0


def _cmd_lint(ns: argparse.Namespace) -> int:
    from opset.lint import lint

    problems, count = lint(ns.paths)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in {count} file(s)", file=sys.stderr)
        return 1
    print(f"ok: {count} file(s)")
    return 0


def _import_onnx(args: list[str]) -> int:
    from opset.importers.command import main_import_onnx

    return main_import_onnx(args)


def _import_ort(args: list[str]) -> int:
    from opset.importers.command import main_import_ort

    return main_import_ort(args)


def _validate(args: list[str]) -> int:
    from opset.validate.cli import main_validate

    return main_validate(args)


def _convert(args: list[str]) -> int:
    from opset.tmfile.convert_cli import main_convert

    return main_convert(args)


def _inspect(args: list[str]) -> int:
    from opset.tmfile.cli import main_inspect

    return main_inspect(args)


def _infer(args: list[str]) -> int:
    from opset.validate.cli import main_infer

    return main_infer(args)


_PASSTHROUGH: dict[str, Callable[[list[str]], int]] = {
    "convert": _convert,
    "infer": _infer,
    "inspect": _inspect,
    "import-onnx": _import_onnx,
    "import-ort": _import_ort,
    "validate": _validate,
}

if __name__ == "__main__":
    sys.exit(console())
