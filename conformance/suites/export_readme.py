"""README.txt of an exported corpus: what it holds, how to run it, and what was left out and why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from conformance.suites.export_cases import (
    CHECKER,
    KERNEL_REJECTS,
    NO_KERNEL,
    NOT_DRAWN,
    NUMPY_TYPE,
    RANDOM,
    REMOVED,
    ExportedCase,
    LeftOut,
)

# per reason, what it means for a user of the corpus (in the README's order)
WHY = {
    RANDOM: "Their values are drawn at random, and onnx defines no generator: not even a seed attribute fixes what "
            "a backend must output, so no expected value is right for every implementation. conform checks such "
            "outputs by their law instead (support, Dropout's mask against its output, a statistical test): run "
            "`conform --backend X --op <op>` for them. Cases whose law leaves nothing to chance (scale 0, p of 0 "
            "or 1, Dropout in inference or with ratio 0) are in the corpus.",
    NO_KERNEL: "The reference has no kernel for the op, so there are no expected values.",
    NUMPY_TYPE: "numpy (with ml_dtypes) holds no such values, so none can be drawn (sparse tensors).",
    NOT_DRAWN: "The strategy found no valid case within its attempts.",
    KERNEL_REJECTS: "The reference kernel rejects a case the schema accepts (a finding for the registry or the "
                    "kernel).",
    CHECKER: "onnx.checker.check_model(full_check=True) refuses the one-node model (onnx's schema or shape "
             "inference disagrees with the registry for it).",
    REMOVED: "The version resolves in no opset (an op ONNX removed), so no model can use it.",
}


def readme_text(cases: Sequence[ExportedCase], left_out: Sequence[LeftOut], command: str, draws: int,
                seed: int) -> str:
    examples = sum(1 for c in cases if c.source.startswith("example"))
    cells = len({(c.domain, c.op, c.since, c.dtype) for c in cases})
    lines = [
        "Operator conformance corpus, written by `conform export` (the opset project) in the ONNX backend "
        "test-data layout.",
        "",
        f"Written by: {command}",
        f"Cases: {len(cases)} over {cells} cells (op version and element type): {examples} from the registry's "
        f"examples, {len(cases) - examples} drawn ({draws} per cell at most, seed {seed}; the same command writes "
        "the same bytes).",
        "",
        "Layout",
        "  <case>/model.onnx                     a one-node model; every input and output typed and shaped",
        "  <case>/test_data_set_0/input_<k>.pb   the k-th graph input's value: TensorProto, or SequenceProto,",
        "                                        OptionalProto, MapProto where the model declares that type",
        "  <case>/test_data_set_0/output_<k>.pb  the k-th graph output's expected value (the reference kernels',",
        "                                        an example's as it states them)",
        "  <case>/data.json                      rtol and atol for the case's floating outputs (the registry's",
        "                                        tolerance; onnx's loader reads it); without it, compare exactly",
        "  manifest.json                         every case with its cell: domain, op, version, element type",
        "  <case> is test_<domain>__<op>__v<version>__<element type>__<draw number or example_<name>>.",
        "",
        "Run it",
        "  conform --suite DIR --backend X       any conform backend; reports per cell",
        "  onnx_test_runner DIR                  onnxruntime's test runner (built from onnxruntime's sources)",
        "  Python: onnx.backend.test.loader.load_model_tests(data_dir=<DIR's parent>, kind=<DIR's name>) lists "
        "the cases as onnx's own node data used to be listed.",
    ]
    lines += ["  onnx's Python runner (onnx.backend.test.runner) reads no MapProto, and fails to compare a sequence "
              "of 0-d tensors (it takes each element for a list of outputs): conform --suite DIR reads and compares "
              "both."]
    maps = sorted({f"{c.domain}@{c.since}::{c.op}" for c in cases if c.holds_map})
    if maps:
        lines += [f"  The cases of these ops hold maps: {', '.join(maps)}."]
    lines += ["", f"Left out: {len(left_out)}" + (" (nothing)" if not left_out else "")]
    for reason in sorted({x.reason for x in left_out}, key=_order):
        lines += ["", *_section(reason, [x for x in left_out if x.reason == reason])]
    return "\n".join(lines) + "\n"


def _order(reason: str) -> int:
    order = list(WHY)
    return order.index(reason) if reason in order else len(order)


def _section(reason: str, entries: Sequence[LeftOut]) -> list[str]:
    lines = [f"{reason} ({len(entries)})", f"  {WHY.get(reason, '')}".rstrip()]
    counts = Counter((x.label, x.detail) for x in entries)
    seen: set[tuple[str, str]] = set()
    for x in entries:
        if (x.label, x.detail) in seen:
            continue
        seen.add((x.label, x.detail))
        times = f" ({counts[x.label, x.detail]} draws)" if counts[x.label, x.detail] > 1 else ""
        lines.append(f"  {x.label}{times}" + (f": {x.detail}" if x.detail else ""))
    return lines
