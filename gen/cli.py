"""`gen`: everything generated from the registry (tests, op functions, docs, netron metadata)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from opset.broken_pipe import ends_quietly_on_broken_pipe
from opset.plugins import PluggedEntry, entry_points_of

# subcommand -> module whose `main(args: list[str]) -> int` runs it
GENERATORS = {
    "ops": ("gen.ops.generator", "typed Python op functions under opset/ops/"),
    "docs": ("gen.docs.generator", "the Markdown docs site under docs/"),
    "netron": ("gen.netron.generator", "Netron metadata JSON per domain"),
    "formulas": ("gen.formulas.generator", "formulas as Python source under opset/formula/generated/"),
}
# generators other packages add, as entry points `name = "module:main"` (gen sits below them and never names them):
# `tests` comes from conformance, whose runner the test modules import
COMMAND_GROUP = "gen.commands"
_PLUGGED_HELP = {"tests": "property-test modules, one per op"}

FORMER_NAMES = {"classes": "ops"}  # `gen classes` named what `gen ops` writes as classes; they are functions


def _plugged_commands() -> dict[str, PluggedEntry]:
    return {name: ep for name, ep in entry_points_of(COMMAND_GROUP).items() if name not in GENERATORS}


@ends_quietly_on_broken_pipe
def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in FORMER_NAMES:  # a command under its former name still runs (scripts and checks use it)
        args[0] = FORMER_NAMES[args[0]]
    plugged = _plugged_commands()
    commands = {**{name: text for name, (_, text) in GENERATORS.items()},
                **{name: _PLUGGED_HELP.get(name, f"(from {ep.value.split(':')[0]})") for name, ep in plugged.items()}}
    if not args or args[0] in ("-h", "--help") or args[0] not in commands:
        print("usage: gen {" + ",".join(sorted(commands)) + "} [options]\n")
        for name in sorted(commands):
            print(f"  {name:8} {commands[name]}")
        return 0 if args and args[0] in ("-h", "--help") else 2
    if args[0] in plugged:
        run = plugged[args[0]].load()
    else:
        run = importlib.import_module(GENERATORS[args[0]][0]).main
    code: int = run(args[1:])
    return code


if __name__ == "__main__":
    sys.exit(main())
