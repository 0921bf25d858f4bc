"""`gen netron`: Netron metadata JSON per registry domain, `<domain>-metadata.json`.

    python -m gen.cli netron [--out build/netron]

Netron reads `onnx-metadata.json` for every ONNX domain and `tengine-metadata.json` for tmfiles; to
use ours, merge the ONNX-style files into the first (entries carry their `module`) and replace the
second. The files are build output (not committed); each is rewritten only when its content changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gen.netron.metadata import NetronError, onnx_entry, tengine_entry
from gen.output import write_if_changed
from opset.errors import RegistryError
from opset.load import load_registry
from opset.registry import Registry

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "build" / "netron"
TENGINE = "tengine"


def main(args: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="gen netron", description="Generate Netron metadata JSON per domain.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: build/netron/)")
    options = parser.parse_args(list(args))
    try:
        files = metadata_files(load_registry())
    except (RegistryError, NetronError) as e:
        print(f"gen netron: {e}", file=sys.stderr)
        return 1
    written = sum(write_if_changed(options.out / name, content) for name, content in files.items())
    print(f"gen netron: {written} written, {len(files) - written} unchanged in {options.out}")
    return 0


def metadata_files(registry: Registry) -> dict[str, str]:
    """File name -> JSON text, one file per domain that defines ops."""
    return {f"{domain}-metadata.json": json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
            for domain, entries in metadata(registry).items()}


def metadata(registry: Registry) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for op in registry:
        entries = out.setdefault(op.domain, [])
        if op.domain == TENGINE:
            entries.append(tengine_entry(op))
        else:
            entries.extend(onnx_entry(v) for v in op.versions)
    return out
