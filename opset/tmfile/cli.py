"""`opset inspect MODEL.tmfile [--json]`: exit 0 with the summary, 2 with one line on stderr when the file
cannot be read as a `.tmfile`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from opset.errors import RegistryError
from opset.load import load_registry
from opset.tmfile import TmfileError, read_tmfile
from opset.tmfile.inspect import render_text, summarize
from opset.tmfile.params import param_structs, tengine_versions


def main_inspect(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="opset inspect", description="What a Tengine .tmfile holds: model, graph, "
                                "counts, op histogram, every node with its parameters and tensors.")
    p.add_argument("model", help="a .tmfile")
    p.add_argument("--json", action="store_true", help="print JSON")
    ns = p.parse_args(list(argv))
    try:
        registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    try:
        model = read_tmfile(ns.model, registry)
    except TmfileError as e:
        print(f"error: {e}", file=sys.stderr)  # one line, starting with the path
        return 2
    summary = summarize(model, param_structs(registry), tengine_versions(registry))
    try:
        print(json.dumps(summary, indent=1) if ns.json else render_text(summary))
    except BrokenPipeError:
        return 0
    return 0
