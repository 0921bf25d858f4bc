"""`opset import-onnx` and `opset import-ort`: their shared command line, and the domains each takes.

Nothing heavy loads before the arguments parse: `--help` needs neither onnx, nor onnxruntime, nor numpy, nor PyYAML
(the importers, `opset.importers.onnx_defs` and `opset.importers.ort_contrib`, load after parsing).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from opset.importers.sources import DEFAULT_SCHEMAS_DIR, ONNX_SOURCE_DOMAINS, ORT_SOURCES

Importer = Callable[..., list[Path]]


def run_import_cli(prog: str, args: list[str], importer: Callable[[], Importer], domains: Iterable[str] = ()) -> int:
    """Shared command line of `opset import-onnx` and `opset import-ort` (`importer()`: the import function, loaded
    after the arguments parse; `domains`: the registry domains the importer takes with `--domain`, the first being
    the default)."""
    parser = argparse.ArgumentParser(prog=prog, description="Create or refresh op files from the source. "
                                     "Without --op or --all, refresh the files that exist.")
    parser.add_argument("--schemas", type=Path, default=DEFAULT_SCHEMAS_DIR, help="registry folder")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--op", nargs="+", action="extend", metavar="NAME", help="create or refresh these ops")
    which.add_argument("--all", action="store_true", help="every op of the source")
    choices = list(domains)
    if choices:
        parser.add_argument("--domain", choices=choices, default=choices[0],
                            help=f"registry domain (default {choices[0]})")
    options = parser.parse_args(args)
    from opset.importers.yaml_writer import ImporterError

    extra = {"domain": options.domain} if choices else {}
    try:
        written = importer()(options.schemas, options.op, create=bool(options.op) or options.all, **extra)
    except ImporterError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"{prog}: {len(written)} file(s) written")
    return 0


def _onnx_importer() -> Importer:
    from opset.importers.onnx_defs import import_onnx

    return import_onnx


def _ort_importer() -> Importer:
    from opset.importers.ort_contrib import import_ort

    return import_ort


def main_import_onnx(args: list[str]) -> int:
    return run_import_cli("opset import-onnx", args, _onnx_importer, ONNX_SOURCE_DOMAINS)


def main_import_ort(args: list[str]) -> int:
    return run_import_cli("opset import-ort", args, _ort_importer, tuple(ORT_SOURCES))
