"""`gen`: everything generated from the registry (tests, op functions, docs, netron metadata)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from opset.broken_pipe import ends_quietly_on_broken_pipe

# subcommand -> module whose `main(args: list[str]) -> int` runs it
GENERATORS = {
    "tests": ("gen.tests.generator", "property-test modules, one per op"),
    "ops": ("gen.ops.generator", "typed Python op functions under opset/ops/"),
    "docs": ("gen.docs.generator", "the Markdown docs site under docs/"),
    "netron": ("gen.netron.generator", "Netron metadata JSON per domain"),
}

FORMER_NAMES = {"classes": "ops"}  # `gen classes` named what `gen ops` writes as classes; they are functions


@ends_quietly_on_broken_pipe
def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in FORMER_NAMES:  # a command under its former name still runs (scripts and checks use it)
        args[0] = FORMER_NAMES[args[0]]
    if not args or args[0] in ("-h", "--help") or args[0] not in GENERATORS:
        print("usage: gen {" + ",".join(GENERATORS) + "} [options]\n")
        for name, (_, text) in GENERATORS.items():
            print(f"  {name:8} {text}")
        return 0 if args and args[0] in ("-h", "--help") else 2
    module = importlib.import_module(GENERATORS[args[0]][0])
    code: int = module.main(args[1:])
    return code


if __name__ == "__main__":
    sys.exit(main())
