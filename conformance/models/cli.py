"""`opset run MODEL.onnx [--input NAME=FILE.npy ...] [--output-dir DIR]`: run a whole model on the reference
kernels and write one `<output name>.npy` per graph output (a sequence, map or optional output: `<name>.npz`,
its arrays and, under `__layout__`, the JSON layout `conformance.containers.unpack` rebuilds it from).

Every given input is checked against its declared graph input before any node runs (name, element type, rank,
fixed dims, and each symbolic dim the same size everywhere, `--dim` sizes included; a `--dim` name no input has is
an error), and so is the output folder (it can be created and written). Graph inputs without `--input` get random
values of their declared element type and shape (a symbolic dim takes its `--dim NAME=SIZE`, else the size the
given inputs bind, else 1), except one that feeds a node's `parameter` input (registry role: Reshape's shape, Slice's
starts ...), whose made-up value would decide the shapes: that is an error naming it. Each output is written under a
temporary name and renamed into place.

Exit 0 on success; 1 when a node cannot be run (the message names it) or an output cannot be written (the outputs
written before it are kept); 2 on a usage problem (an unreadable or empty model, an input file that is no .npy,
a feed that does not fit, an unknown input or dim name, a parameter not given, an output folder that cannot be
written); 130 / 143 on SIGINT / SIGTERM, keeping what was written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from conformance.models.outputs import OutputError, check_output_dir, check_output_files, write_file
from conformance.signals import Interrupted, interrupt_if_pending, stopping_on_signals

if TYPE_CHECKING:  # numpy, onnx and the runner load once the arguments are parsed: `opset run --help` needs none
    import numpy as np
    import onnx

LAYOUT_KEY = "__layout__"

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def main_run(argv: Sequence[str]) -> int:
    written: list[Path] = []
    try:
        with stopping_on_signals():  # from the first moment: a signal while reading the model is no traceback either
            return _run(_parser().parse_args(list(argv)), written)
    except Interrupted as stop:
        kept = f"kept {len(written)} output file(s): {', '.join(map(str, written))}" if written else "no output written"
        print(f"opset run: interrupted by {stop} ({kept})", file=sys.stderr)
        return stop.exit_code


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opset run", description=__doc__.split("\n\n")[0])
    p.add_argument("model", type=Path)
    p.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy",
                   help="a graph input's value (repeatable; a sequence, map or optional: a .npz opset run wrote)")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=SIZE",
                   help="the size of a symbolic dim of the graph inputs (default: what the given inputs bind, else 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--output-dir", type=Path, default=Path("."), help="where the .npy files go (default: .)")
    return p


def _run(ns: argparse.Namespace, written: list[Path]) -> int:
    from conformance.containers import describe
    from conformance.models.feeds import check_feeds
    from conformance.models.runner import ModelRunError, ModelRunner

    try:
        model = load_model(ns.model)
        runner = ModelRunner(model)
        dims = {name: int(_checked_int(value, name)) for name, value in _pairs(ns.dim, "--dim").items()}
        given = {name: _load(path, name) for name, path in _pairs(ns.input, "--input").items()}
        check_output_dir(ns.output_dir)
        paths = {name: output_path(ns.output_dir, name, None) for name in runner.output_names}
        check_output_files([q for name in runner.output_names for q in _both_suffixes(paths[name])])
        bound = check_feeds(model, given, dims, all_given=False)  # the others are drawn with the dims bound
        needed = parameter_inputs(model, [n for n in runner.input_names if n not in given])
        if needed:
            raise UsageError("; ".join(f"input '{name}' feeds {what}, a parameter: give it with --input {name}=FILE.npy"
                                       for name, what in needed.items()))
        feeds = {**random_inputs(model, runner.input_names, bound, ns.seed, skip=set(given)), **given}
    except (UsageError, ModelRunError, OutputError) as e:
        print(f"opset run: {e}", file=sys.stderr)
        return 2
    for name, value in feeds.items():
        if name not in given:
            print(f"input  {name}: random {value.dtype}{list(value.shape)}")
    try:
        outputs = runner.run(feeds)
    except ModelRunError as e:
        print(f"opset run: {ns.model}: {e}", file=sys.stderr)
        return 1
    interrupt_if_pending()  # a signal that landed where Python could not raise it: no output is written after it
    for name, value in outputs.items():
        interrupt_if_pending()
        path = output_path(ns.output_dir, name, value)
        try:
            write_file(path, _writer(name, value))
        except OutputError as e:
            kept = f" (kept: {', '.join(map(str, written))})" if written else ""
            print(f"opset run: {e}{kept}", file=sys.stderr)
            return 1
        written.append(path)
        print(f"output {name}: {describe(value)} -> {path}")
    return 0


def output_path(folder: Path, name: str, value: Any) -> Path:
    """`<folder>/<name>.npy`, or `.npz` for a sequence, map or optional (any other character of the name as `_`)."""
    from conformance.containers import is_container

    stem = _SAFE.sub("_", name) or "output"
    return folder / f"{stem}.{'npz' if value is not None and is_container(value) else 'npy'}"


def _both_suffixes(path: Path) -> list[Path]:
    return [path.with_suffix(".npy"), path.with_suffix(".npz")]


def _writer(name: str, value: Any) -> Callable[[IO[bytes]], None]:
    import numpy as np

    from conformance.containers import is_container, pack

    def write(out: IO[bytes]) -> None:
        if is_container(value):  # a sequence, map or optional: its arrays and the layout that rebuilds it
            arrays, layout = pack({name: value})
            np.savez(out, **arrays, **{LAYOUT_KEY: np.array(json.dumps(layout))})  # type: ignore[arg-type]
        else:  # through write(), not numpy's fwrite: a full disk is then ENOSPC, not "N requested and M written"
            np.save(_WriteOnly(out), value)
    return write


class _WriteOnly:
    """A file seen through its write() alone."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out

    def write(self, data: bytes) -> int:
        return self.out.write(data)


class UsageError(Exception):
    pass


def load_model(path: Path) -> onnx.ModelProto:
    """An ONNX model, or a `.tmfile` as its tengine-domain ONNX view (`opset.tmfile.onnx_view`)."""
    import onnx
    from google.protobuf.message import DecodeError

    from conformance.registry import current_registry
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


NPY_MAGIC = b"\x93NUMPY"
NPZ_MAGIC = b"PK\x03\x04"


def _load(path: str, name: str) -> Any:
    """A `.npy` array, or a sequence, map or optional from a `.npz` that `opset run` wrote (its layout inside)."""
    import numpy as np

    from conformance.containers import unpack

    where = f"--input {name}={path}"
    try:
        with open(path, "rb") as f:
            head = f.read(len(NPY_MAGIC))
    except OSError as e:
        raise UsageError(f"{where}: cannot read it: {e.strerror or e}") from e
    if not head.startswith((NPY_MAGIC, NPZ_MAGIC)):
        shown = "an empty file" if not head else f"a file starting with {head!r}"
        raise UsageError(f"{where}: not a .npy file (numpy.save writes one) but {shown}")
    try:
        value = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise UsageError(f"{where}: not a readable .npy/.npz file: {e}") from e
    if not isinstance(value, np.lib.npyio.NpzFile):
        return value
    try:
        with value:
            if LAYOUT_KEY not in value.files:
                raise UsageError(f"{where}: holds several arrays; give one .npy file per input "
                                 "(or a container .npz as opset run writes one)")
            layout = json.loads(str(value[LAYOUT_KEY]))
            arrays = {k: np.asarray(value[k]) for k in value.files if k != LAYOUT_KEY}
        if not isinstance(layout, dict) or len(layout) != 1:
            raise UsageError(f"{where}: holds {len(layout)} values; give one per input")
        return next(iter(unpack(layout, arrays).values()))
    except (OSError, ValueError, EOFError, KeyError, TypeError, zipfile.BadZipFile) as e:
        raise UsageError(f"{where}: not a container .npz as opset run writes one: {type(e).__name__}: {e}") from e


def parameter_inputs(model: onnx.ModelProto, names: Sequence[str]) -> dict[str, str]:
    """Which of the graph inputs `names` feed a `parameter` input of a node of the main graph (registry role), each
    with the first such node (`Reshape 'reshape_0' input 'shape' (ai.onnx@21::Reshape)`)."""
    from conformance.registry import current_registry
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
    import numpy as np
    from onnx import helper

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
