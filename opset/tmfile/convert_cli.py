"""`opset convert SOURCE TARGET`: a Tengine `.tmfile` to an ai.onnx model, or an ai.onnx model to a `.tmfile`.

The direction follows the files: a `.tmfile` source (by suffix or by its first bytes) converts to ONNX
(`opset.tmfile.convert`), an ONNX source to a `.tmfile` (`opset.tmfile.from_onnx`). Exit 0 when written, 1 when a
node has no mapping (all listed, with their reasons) or the result does not check, 2 when a file cannot be read or
written, or the arguments are wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import onnx

from opset.errors import RegistryError, one_line
from opset.formula import FormulaError
from opset.registry import Registry


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opset convert", description=(
        "Convert a Tengine .tmfile into an ai.onnx model, or an ai.onnx model into a .tmfile, through the "
        "registry's maps_to. Exit 0 when written, 1 when a node has no mapping (all listed with their reasons) or "
        "the model is invalid, 2 when a file cannot be read or written."))
    p.add_argument("model", help="a .tmfile, or an .onnx model")
    p.add_argument("output", help="where to write the .onnx model, or the .tmfile")
    p.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="dims of a graph input the file leaves unknown (repeatable; MXNet models declare none)")
    p.add_argument("--keep-types", action="store_true",
                   help="tmfile -> ONNX: keep float16 and quantised constants as stored (Cast / DequantizeLinear "
                        "before their use) instead of widening them to float32")
    return p


def main_convert(args: Sequence[str]) -> int:
    try:
        ns = _parser().parse_args(list(args))
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else 2
    try:
        shapes = _input_shapes(ns.input_shape)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from opset.load import load_registry
    from opset.tmfile import is_tmfile

    try:
        registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    if is_tmfile(ns.model):
        return _tmfile_to_onnx(ns.model, ns.output, registry, shapes, ns.keep_types)
    from opset.tmfile.from_onnx import main_onnx_to_tmfile

    code: int = main_onnx_to_tmfile(ns.model, ns.output, registry, shapes)
    return code


def _input_shapes(given: Sequence[str]) -> dict[str, list[int]]:
    shapes: dict[str, list[int]] = {}
    for text in given:
        name, sep, dims = text.partition("=")
        try:
            shapes[name] = [int(d) for d in dims.split(",")] if sep and name else []
        except ValueError:
            shapes[name] = []
        if not shapes[name] or min(shapes[name]) < 1:
            raise ValueError(f"--input-shape {text!r}: expected NAME=D0,D1,... with positive dims")
    return shapes


def _tmfile_to_onnx(path: str, output: str, registry: Registry, shapes: dict[str, list[int]],
                    keep_types: bool) -> int:
    from opset.tmfile import TmfileError, read_tmfile
    from opset.tmfile.convert import convert
    from opset.tmfile.onnx_view import ViewError
    from opset.tmfile.params import tengine_versions
    from opset.tmfile.validate import structure_diagnostics

    try:
        model = read_tmfile(path, registry)
    except TmfileError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    problems = [d for d in structure_diagnostics(model.graph, tengine_versions(registry)) if d.is_error]
    for d in problems:
        print(one_line(f"{path}: {d}"), file=sys.stderr)
    if problems:
        print(f"error: {path}: {len(problems)} error(s) in the file (opset validate says more); nothing written",
              file=sys.stderr)
        return 1
    try:
        result = convert(model, registry, input_shapes=shapes, keep_types=keep_types)
    except (ViewError, FormulaError) as e:
        print(one_line(f"error: {path}: {e}"), file=sys.stderr)
        return 1
    if result.model is None:
        for u in result.unmapped:
            print(one_line(f"{path}: unmapped {u}"), file=sys.stderr)
        ops = sorted({u.op for u in result.unmapped})
        print(f"error: {path}: {len(result.unmapped)} node(s) have no ai.onnx mapping ({', '.join(ops)}); "
              "nothing written", file=sys.stderr)
        return 1
    try:
        onnx.checker.check_model(result.model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(one_line(f"error: {path}: the converted model does not pass onnx.checker: {first}"), file=sys.stderr)
        return 1
    try:
        onnx.save_model(result.model, output)
    except OSError as e:
        print(one_line(f"error: cannot write {output}: {e}"), file=sys.stderr)
        return 2
    print(f"{output}: {len(result.model.graph.node)} ai.onnx nodes at opset {result.opset} from "
          f"{len(model.graph.nodes)} Tengine nodes ({len(result.model.graph.initializer)} initializers)")
    return 0
