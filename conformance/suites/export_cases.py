"""The cases of one cell for `conform export`: drawn by conform's own strategies (a fixed number, seeded), or
taken from the YAML examples, each turned into a one-node model with its inputs and expected outputs, and written
in the ONNX backend test-data layout:

    <name>/model.onnx                      the one-node model, every input and output typed and shaped
    <name>/test_data_set_0/input_<k>.pb    the value of the model's k-th graph input (TensorProto, SequenceProto,
                                           OptionalProto or MapProto, as the model declares it)
    <name>/test_data_set_0/output_<k>.pb   the expected value of its k-th graph output
    <name>/data.json                       {"rtol", "atol"}: the registry's tolerance, which onnx's loader reads
                                           (a case with a floating output)

Expected outputs are the reference kernels' (an example's are the ones it states). A case is left out, with a
reason, when its outputs are drawn at random (no value is right for every implementation, not even for a seed),
when the reference has no kernel or rejects the case, or when onnx's checker refuses its model.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable

from conformance.compare import tolerance_for
from conformance.containers import shape_of
from conformance.element_types import COMPLEX, FLOATS, element_of
from conformance.onnx_model import case_model, output_types
from conformance.runner.checks import InvalidCase, expected_outputs
from conformance.runner.random_laws import law_test
from conformance.runner.random_outputs import random_call
from conformance.strategies.case import Case
from conformance.strategies.cases import op_cases
from conformance.strategies.examples import example_case
from conformance.strategies.repeatable import draw_without_local_constants
from conformance.value_protos import to_proto
from opset.model import Example, OpVersion, module_name, op_label

# why a case (or a whole cell) is not in the corpus; the README groups what was left out by these
RANDOM = "outputs drawn at random"
NO_KERNEL = "no reference kernel"
NUMPY_TYPE = "an element type numpy cannot hold"
NOT_DRAWN = "no valid case could be drawn"
KERNEL_REJECTS = "the reference kernel rejects the case"
CHECKER = "onnx's checker refuses the model"
REMOVED = "removed from every opset"


@dataclass(frozen=True, slots=True)
class ExportedCase:
    """One case folder of the corpus and the cell it reports under (the manifest's entry)."""

    name: str
    domain: str
    op: str
    since: int
    dtype: str
    source: str  # "draw <n>" or "example <name>"
    holds_map: bool = False  # a graph input or output holds a map (onnx's Python runner reads no MapProto)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "domain": self.domain, "op": self.op, "since": self.since, "dtype": self.dtype,
                "source": self.source}


@dataclass(frozen=True, slots=True)
class LeftOut:
    """What was not exported (a cell, a draw, an example) and why."""

    label: str  # the cell or op version (`ai.onnx@22::RandomNormal[float]`)
    reason: str  # one of the constants above
    detail: str = ""  # the message, where there is one (the checker's, the kernel's)


@dataclass(frozen=True, slots=True)
class CellExport:
    cases: tuple[ExportedCase, ...]
    left_out: tuple[LeftOut, ...]


def case_name(version: OpVersion, dtype: str, tail: str) -> str:
    """`test_<domain module>__<op>__v<since>__<dtype>__<tail>`: onnx's runner takes only names that start with
    `test_`; a container cell's type text becomes a plain word (`seq(tensor(float))` -> `seq_tensor_float`)."""
    return "__".join([f"test_{module_name(version.domain)}", version.name, f"v{version.since}", _word(dtype),
                      _word(tail)])


def _word(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def cell_seed(seed: int, version: OpVersion, dtype: str) -> int:
    """The Hypothesis seed of one cell: fixed by the run's seed and the cell alone, so a cell's draws do not depend
    on which other cells are exported, nor in which order."""
    text = f"{seed}/{op_label(version.domain, version.name, version.since, dtype)}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def drawn_cases(version: OpVersion, dtype: str, count: int, seed: int) -> list[Case]:
    """Up to `count` cases of the cell drawn by conform's strategy, the same ones for the same seed (Hypothesis's
    generate phase only: no database, no shrinking, no constants of the local source; fewer when the strategy has
    fewer distinct cases)."""
    draw_without_local_constants()
    strategy = op_cases(version, dtype)
    found: list[Case] = []

    @hypothesis_seed(cell_seed(seed, version, dtype))
    @settings(max_examples=count, database=None, deadline=None, phases=(Phase.generate,), print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(case: Case) -> None:
        found.append(case)

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # overflowing casts of drawn values are intended
        collect()
    return found[:count]


def export_cell(version: OpVersion, dtype: str, count: int, seed: int, out: Path) -> CellExport:
    """Draw the cell's cases and write those that can be exported into `out`."""
    label = op_label(version.domain, version.name, version.since, dtype)
    try:
        cases = drawn_cases(version, dtype, count, seed)
    except Unsatisfiable as e:
        return CellExport((), (LeftOut(label, NOT_DRAWN, str(e).splitlines()[0]),))
    written: list[ExportedCase] = []
    left: list[LeftOut] = []
    for n, case in enumerate(cases):
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                expected = expected_outputs(case)
        except InvalidCase as e:
            left.append(LeftOut(label, KERNEL_REJECTS, str(e)))
            continue
        if expected is None:
            left.append(LeftOut(label, NO_KERNEL))
            break  # no draw of the cell has expected values
        if left_to_chance(case, expected):
            left.append(LeftOut(label, RANDOM))
            continue
        found = write_case(case, expected, case_name(version, dtype, str(n)), f"draw {n}", out)
        if isinstance(found, LeftOut):
            left.append(found)
        else:
            written.append(found)
    return CellExport(tuple(written), tuple(left))


def export_example(version: OpVersion, example: Example, out: Path) -> ExportedCase | LeftOut:
    """The YAML example as a case, its stated outputs the expected ones."""
    case, expected = example_case(version, example)
    if left_to_chance(case, expected):
        return LeftOut(case.label, RANDOM, f"example {example.name}")
    return write_case(case, list(expected), case_name(version, case.dtype, f"example_{example.name}"),
                      f"example {example.name}", out)


def left_to_chance(case: Case, expected: Sequence[Any]) -> bool:
    """Are some of the case's outputs drawn at random with a law that leaves them to chance? A law that is certain
    everywhere (scale 0, p of 0 or 1, Dropout in inference) defines the values, which are then expected."""
    call = random_call(case.version, case.inputs, case.attributes)
    if call is None:
        return False
    drawn = {n: np.asarray(y) for n, y in zip(case.output_names, expected, strict=False) if n in call.outputs}
    return law_test(call, drawn) is not None


def write_case(case: Case, expected: Sequence[Any], name: str, source: str, out: Path) -> ExportedCase | LeftOut:
    """Write the case folder `out/name`, or say why its model cannot be written."""
    model = case_model(case, output_types(case, list(expected)), [shape_of(y) for y in expected])
    problem = checker_problem(model)
    if problem is not None:
        return LeftOut(case.label, CHECKER, f"{source}: {problem}")
    folder = out / name
    data = folder / "test_data_set_0"
    data.mkdir(parents=True)
    (folder / "model.onnx").write_bytes(model.SerializeToString())
    named = {**case.outer, **{n: x for n, x in zip(case.input_names, case.inputs, strict=True) if n}}
    for k, info in enumerate(model.graph.input):
        (data / f"input_{k}.pb").write_bytes(to_proto(named[info.name], info.name, info.type).SerializeToString())
    for k, (info, y) in enumerate(zip(model.graph.output, expected, strict=True)):
        (data / f"output_{k}.pb").write_bytes(to_proto(y, info.name, info.type).SerializeToString())
    tolerance = case_tolerance(case.version, expected)
    if tolerance is not None:
        (folder / "data.json").write_text(json.dumps({"rtol": tolerance[0], "atol": tolerance[1]}) + "\n",
                                          encoding="utf-8")
    v = case.version
    return ExportedCase(name, v.domain, v.name, v.since, case.dtype, source,
                        any(_holds_map(i.type) for i in [*model.graph.input, *model.graph.output]))


def _holds_map(t: onnx.TypeProto) -> bool:
    kind = t.WhichOneof("value")
    if kind == "map_type":
        return True
    if kind == "sequence_type":
        return _holds_map(t.sequence_type.elem_type)
    if kind == "optional_type":
        return _holds_map(t.optional_type.elem_type)
    return False


def checker_problem(model: onnx.ModelProto) -> str | None:
    """onnx's full check (strict shape inference included) of a model, as one line; None when it passes."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        return " ".join(str(e).split())[:300]
    return None


def case_tolerance(version: OpVersion, expected: Sequence[Any]) -> tuple[float, float] | None:
    """(rtol, atol) of a case: the widest of the registry's tolerances (conformance.compare) for its floating
    outputs' element types; None when no output is floating (conform compares the others exactly)."""
    elements = {element_of(a.dtype) for a in _arrays(expected)} & (FLOATS | COMPLEX)
    tolerances = [tolerance_for(version, e) for e in sorted(e for e in elements if e)]
    if not tolerances:
        return None
    return max(t.rtol for t in tolerances), max(t.atol for t in tolerances)


def _arrays(values: Sequence[Any]) -> list[np.ndarray]:
    """Every tensor in `values`, containers opened."""
    found: list[np.ndarray] = []
    for x in values:
        if isinstance(x, np.ndarray):
            found.append(x)
        elif isinstance(x, list):
            found += _arrays(x)
        elif isinstance(x, dict):
            found += _arrays([np.asarray(v) for v in x.values()])
    return found
