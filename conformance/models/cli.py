"""`opset run MODEL.onnx [--input NAME=FILE.npy ...] [--output-dir DIR]`: run a whole model on the reference
kernels and write one `<output name>.npy` per graph output (a sequence, map or optional output: `<name>.npz`,
its arrays and, under `__layout__`, the JSON layout `conformance.containers.unpack` rebuilds it from).

Graph inputs without `--input` get random values of their declared element type and shape (a symbolic
dim takes its `--dim NAME=SIZE`, else 1), except one that feeds a node's `parameter` input (registry role: Reshape's
shape, Slice's starts ...), whose made-up value would decide the shapes: that is an error naming it. Exit 0 on
success, 1 when a node cannot be run (the message names it), 2 on a usage problem (an unreadable model or input file,
an unknown input name, a parameter not given).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnx import helper

from conformance.containers import describe, is_container, pack, unpack
from conformance.models.runner import ModelRunError, ModelRunner
from conformance.registry import current_registry

LAYOUT_KEY = "__layout__"

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def main_run(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="opset run", description=__doc__.split("\n\n")[0])
    p.add_argument("model", type=Path)
    p.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy",
                   help="a graph input's value (repeatable; a sequence, map or optional: a .npz opset run wrote)")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=SIZE",
                   help="the size of a symbolic dim for random inputs (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--output-dir", type=Path, default=Path("."), help="where the .npy files go (default: .)")
    ns = p.parse_args(list(argv))
    try:
        model = load_model(ns.model)
    except UsageError as e:
        print(f"opset run: {e}", file=sys.stderr)
        return 2
    try:
        dims = {name: int(_checked_int(value, name)) for name, value in _pairs(ns.dim, "--dim").items()}
        given = {name: _load(path, name) for name, path in _pairs(ns.input, "--input").items()}
        runner = ModelRunner(model)
        unknown = [n for n in given if n not in runner.input_names]
        if unknown:
            raise UsageError(f"--input {', '.join(unknown)}: not an input of the graph (inputs: "
                             f"{', '.join(runner.input_names) or 'none'})")
        made_up = [n for n in runner.input_names if n not in given]
        needed = parameter_inputs(model, made_up)
        if needed:
            raise UsageError("; ".join(f"input '{name}' feeds {what}, a parameter: give it with --input {name}=FILE.npy"
                                       for name, what in needed.items()))
        feeds = {**random_inputs(model, runner.input_names, dims, ns.seed, skip=set(given)), **given}
    except (UsageError, ModelRunError) as e:
        print(f"opset run: {e}", file=sys.stderr)
        return 2
    try:
        outputs = runner.run(feeds)
    except ModelRunError as e:
        print(f"opset run: {ns.model}: {e}", file=sys.stderr)
        return 1
    ns.output_dir.mkdir(parents=True, exist_ok=True)
    for name, value in feeds.items():
        if name not in given:
            print(f"input  {name}: random {value.dtype}{list(value.shape)}")
    for name, value in outputs.items():
        stem = _SAFE.sub("_", name) or "output"
        if is_container(value):  # a sequence, map or optional: its arrays and the layout that rebuilds it
            path = ns.output_dir / f"{stem}.npz"
            arrays, layout = pack({name: value})
            np.savez(path, **arrays, **{LAYOUT_KEY: np.array(json.dumps(layout))})  # type: ignore[arg-type]
        else:
            path = ns.output_dir / f"{stem}.npy"
            np.save(path, value)
        print(f"output {name}: {describe(value)} -> {path}")
    return 0


class UsageError(Exception):
    pass


def load_model(path: Path) -> onnx.ModelProto:
    """An ONNX model, or a `.tmfile` as its tengine-domain ONNX view (`opset.tmfile.onnx_view`)."""
    from opset.tmfile import TmfileError, is_tmfile, read_tmfile

    if not is_tmfile(str(path)):
        try:
            return onnx.load(str(path))
        except (OSError, DecodeError, ValueError) as e:
            raise UsageError(f"cannot read {path}: {type(e).__name__}: {e}") from e
    from opset.tmfile.onnx_view import ViewError, to_onnx

    registry = current_registry()
    try:
        return to_onnx(read_tmfile(path, registry), registry).model
    except TmfileError as e:
        raise UsageError(f"cannot read {e}") from e
    except ViewError as e:
        raise UsageError(f"{path}: {e} (opset validate says more)") from e


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"{flag} {item!r}: expected NAME=VALUE")
        out[name] = value
    return out


def _checked_int(text: str, name: str) -> int:
    try:
        value = int(text)
    except ValueError as e:
        raise UsageError(f"--dim {name}={text}: not an integer") from e
    if value < 0:
        raise UsageError(f"--dim {name}={text}: a dim cannot be negative")
    return value


def _load(path: str, name: str) -> Any:
    """A `.npy` array, or a sequence, map or optional from a `.npz` that `opset run` wrote (its layout inside)."""
    try:
        value = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise UsageError(f"--input {name}={path}: {e}") from e
    if isinstance(value, np.lib.npyio.NpzFile):
        with value:
            if LAYOUT_KEY not in value.files:
                raise UsageError(f"--input {name}={path}: holds several arrays; give one .npy file per input "
                                 "(or a container .npz as opset run writes one)")
            layout = json.loads(str(value[LAYOUT_KEY]))
            arrays = {k: np.asarray(value[k]) for k in value.files if k != LAYOUT_KEY}
        if len(layout) != 1:
            raise UsageError(f"--input {name}={path}: holds {len(layout)} values; give one per input")
        return next(iter(unpack(layout, arrays).values()))
    return value


def parameter_inputs(model: onnx.ModelProto, names: Sequence[str]) -> dict[str, str]:
    """Which of the graph inputs `names` feed a `parameter` input of a node of the main graph (registry role), each
    with the first such node (`Reshape 'reshape_0' input 'shape' (ai.onnx@21::Reshape)`)."""
    from opset.errors import ResolutionError

    registry = current_registry()
    imports = {o.domain: o.version for o in model.opset_import}
    wanted = set(names)
    found: dict[str, str] = {}
    for node in model.graph.node:
        try:
            version = registry.try_resolve(node.domain, node.op_type, imports.get(node.domain, 0))
        except ResolutionError:  # a domain the registry lacks: the runner says so when it gets there
            continue
        if version is None or not version.inputs:
            continue
        for i, name in enumerate(node.input):
            param = version.inputs[min(i, len(version.inputs) - 1)]
            if name in wanted and name not in found and param.role == "parameter":
                found[name] = f"{node.op_type} '{node.name}' input '{param.name}' ({version.signature})"
    return found


def random_inputs(model: onnx.ModelProto, names: Sequence[str], dims: dict[str, int], seed: int,
                  skip: set[str]) -> dict[str, np.ndarray]:
    """Random values of each graph input's declared element type and shape."""
    rng = np.random.default_rng(seed)
    declared = {i.name: i for i in model.graph.input}
    feeds = {}
    for name in names:
        if name in skip:
            continue
        t = declared[name].type
        if not t.HasField("tensor_type"):
            raise UsageError(f"input '{name}' is not a tensor: give it with --input")
        dtype = helper.tensor_dtype_to_np_dtype(t.tensor_type.elem_type)
        if dtype.kind not in "biuf":
            raise UsageError(f"input '{name}' has element type {dtype}: give it with --input")
        shape = [d.dim_value if d.HasField("dim_value") else int(dims.get(d.dim_param, 1))
                 for d in t.tensor_type.shape.dim]
        if dtype.kind == "f":
            feeds[name] = rng.standard_normal(shape).astype(dtype)
        elif dtype.kind == "b":
            feeds[name] = rng.integers(0, 2, shape).astype(bool)
        else:
            feeds[name] = rng.integers(0, 10, shape).astype(dtype)
    return feeds
