"""`opset validate MODEL.onnx [--json] [--profile NAME] [--backend-report NAME|PATH]`: exit 0 clean (warnings
allowed), 1 on errors (with --backend-report, also a node the backend is known to fail on or cannot run), 2 when
the file or the report cannot be read or is not a model (or the arguments are wrong)."""

from __future__ import annotations

import argparse
import sys

from opset.errors import RegistryError, one_line
from opset.validate.diagnostics import has_errors, render_json, render_text
from opset.validate.profiles import PROFILES, UnknownProfileError

# onnx (and numpy with it) and the validator load once the arguments are parsed: `--help` needs neither


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opset validate", description=__doc__)
    p.add_argument("model", help="path of an .onnx file (external data is read from its folder)")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    p.add_argument("--profile", default=None, choices=sorted(PROFILES),
                   help="how the model's domains map onto the registry (default: as written)")
    p.add_argument("--backend-report", default=None, metavar="NAME|PATH",
                   help="also mark the nodes whose conformance cell this backend's report (a built-in one's name, "
                        "e.g. onnxruntime, or a conform --report file) fails, cannot run or expects to fail")
    return p


def main_validate(args: list[str]) -> int:
    parser = _parser()
    try:
        ns = parser.parse_args(args)
    except SystemExit as e:  # argparse exits on --help (0) and on bad arguments (2)
        return int(e.code) if isinstance(e.code, int) else 2
    from opset.tmfile import is_tmfile
    from opset.validate.api import check_model
    from opset.validate.reading import ModelReadError, read_model

    if is_tmfile(ns.model):
        if ns.backend_report is not None:
            print("error: --backend-report applies to ONNX models (convert a .tmfile first: opset convert)",
                  file=sys.stderr)
            return 2
        return _validate_tmfile(ns.model, ns.json, ns.profile)
    try:
        model = read_model(ns.model)
    except ModelReadError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    report = None
    if ns.backend_report is not None:  # its module loads only then
        from opset.validate.backend_report import ReportError, load_backend_report

        try:
            report = load_backend_report(ns.backend_report)
        except ReportError as e:
            print(one_line(f"error: {e}"), file=sys.stderr)
            return 2
    try:
        result = check_model(model, ns.profile)
        diags = result.diagnostics
        if report is not None:
            from opset.validate.backend_report import backend_diagnostics

            diags = diags + backend_diagnostics(model, report, ns.profile, facts=result.facts)
    except UnknownProfileError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    except RegistryError as e:
        print(e, file=sys.stderr)
        print(f"error: the registry could not be loaded ({len(e.problems)} problem(s))", file=sys.stderr)
        return 1
    if ns.json:
        from opset.validate.values import values_json

        print(render_json(diags, ns.model, values_json(result.facts)))
    else:
        print(render_text(diags, ns.model))
    return 1 if has_errors(diags) else 0


def _validate_tmfile(path: str, as_json: bool, profile: str | None) -> int:
    """A Tengine model: its container checks, then its ONNX view (opset.tmfile.validate)."""
    from opset.load import load_registry
    from opset.tmfile import TmfileError, read_tmfile
    from opset.tmfile.validate import validate_tmfile
    from opset.validate.values import values_json

    if profile is not None:
        print("error: --profile applies to ONNX models; a .tmfile is always the tengine domain", file=sys.stderr)
        return 2
    try:
        registry = load_registry()
    except RegistryError as e:
        print(e, file=sys.stderr)
        print(f"error: the registry could not be loaded ({len(e.problems)} problem(s))", file=sys.stderr)
        return 1
    try:
        model = read_tmfile(path, registry)
    except TmfileError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    result = validate_tmfile(model, registry)
    diags = result.diagnostics
    print(render_json(diags, path, values_json(result.facts)) if as_json else render_text(diags, path))
    return 1 if has_errors(diags) else 0


def _infer_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opset infer", description=(
        "Write every inferred type and shape of the main graph into the model as value_info (as "
        "onnx.shape_inference does, for every registry domain). Exit 0 when written (diagnostics go to "
        "stderr), 2 when the model cannot be read."))
    p.add_argument("model", help="path of an .onnx file, or of a .tmfile (its tensors get the inferred dims)")
    p.add_argument("-o", "--output", required=True,
                   help="where to write the annotated model (for a .tmfile: a .tmfile, or .onnx for its view)")
    p.add_argument("--profile", default=None, choices=sorted(PROFILES),
                   help="how the model's domains map onto the registry (default: as written)")
    return p


def main_infer(args: list[str]) -> int:
    try:
        ns = _infer_parser().parse_args(args)
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else 2
    from opset.tmfile import is_tmfile
    from opset.validate.api import check_model
    from opset.validate.reading import ModelReadError, read_model, write_model
    from opset.validate.values import annotate

    if is_tmfile(ns.model):  # a Tengine model: its dims written back into the .tmfile (opset.tmfile.infer)
        from opset.tmfile.infer import main_infer_tmfile

        return main_infer_tmfile(ns.model, ns.output, ns.profile)
    try:
        model = read_model(ns.model)
        result = check_model(model, ns.profile)
    except ModelReadError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    except UnknownProfileError as e:
        print(one_line(f"error: {e}"), file=sys.stderr)
        return 2
    except RegistryError as e:
        print(e, file=sys.stderr)
        return 1
    for d in result.diagnostics:
        print(one_line(f"{ns.model}: {d}"), file=sys.stderr)
    annotated = annotate(model, result.facts)
    try:
        write_model(annotated, ns.output)
    except (OSError, ValueError) as e:  # ValueError: over protobuf's 2 GB
        print(f"error: cannot write {ns.output}: {e}", file=sys.stderr)
        return 2
    written = len(annotated.graph.value_info)
    print(f"{ns.output}: {written} value_info entries")
    return 0
