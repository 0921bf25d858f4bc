"""Repro bundles: everything needed to re-run one failing case (`conformance.runner.replay` re-runs one).

    <repro-dir>/<domain>__<op>__v<since>__<dtype>[__<example> | __law]/
        model.onnx     the one-node model (node, attributes, typed inputs and outputs)
        input_<i>.pb   the value of the node's i-th input (absent for an omitted one), as onnx's backend test
                       data stores values (conformance.value_protos: every element type, containers too)
        output_<i>.pb  the reference's i-th output (absent when there is no reference kernel)
        outer_<k>.pb   the k-th value the node's graph attributes read from the enclosing graph (the model's
                       graph inputs after the node's own)
        case.json      op, version, dtype, type bindings, backend, timeout, constant_inputs (`--constant-inputs`),
                       what failed (the backend's whole message, on one line), whether it is a law case
                       (`random_laws.law_case`: its replay tests the draws against their law again), and `before`:
                       the folders below of cases to run first
        before_<k>/    a case (same files) the replay runs first in the same backend process: a crash that happens
                       only right after it (`worker.IsolatedBackend`'s triage) reproduces
        command.txt    the one command that re-runs exactly this case (exit 1 while it still fails)
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.containers import shape_of
from conformance.onnx_model import case_model, node_attributes, output_shapes, output_types
from conformance.runner.settings import CheckSettings, RecentCase
from conformance.strategies.attributes import node_values
from conformance.strategies.case import Case
from conformance.value_protos import load_value, save_value


def bundle_name(case: Case, law: bool = False) -> str:
    v = case.version
    tail = f"__{case.example}" if case.example else "__law" if law else ""
    # a container cell's type text (`seq(tensor(float))`) as a name a shell takes unquoted: seq_tensor_float
    dtype = re.sub(r"[^A-Za-z0-9._-]+", "_", case.dtype).strip("_")
    return f"{v.domain}__{v.name}__v{v.since}__{dtype}{tail}"


def replay_command(spec: str, bundle: Path, timeout: float, constant_inputs: str = "auto") -> str:
    backend = spec
    if spec.endswith(".py") or ".py:" in spec:  # a file path must survive a change of directory
        path, _, attr = spec.partition(":")
        backend = str(Path(path).resolve()) + (f":{attr}" if attr else "")
    constants = ["--constant-inputs", constant_inputs] if constant_inputs != "auto" else []
    return shlex.join(["conform", "--backend", backend, "--replay", str(bundle.resolve()),
                       "--timeout", f"{timeout:g}", *constants])


def write_bundle(case: Case, expected: list[np.ndarray] | None, settings: CheckSettings,
                 what: str, *, law: bool = False, before: Sequence[RecentCase] = ()) -> tuple[Path, str]:
    """Write the bundle of a failing case (with `before`: the cases a crash needs run first in the same backend
    process, as `before_<k>/` bundles of their own); (its folder, the command that replays it). OSError as the
    system gives it."""
    if settings.repro_dir is None:
        raise ValueError("write_bundle needs settings.repro_dir")
    bundle = settings.repro_dir / bundle_name(case, law)
    bundle.mkdir(parents=True, exist_ok=True)
    for old in bundle.glob("before_*"):  # a bundle rewritten for another case
        shutil.rmtree(old, ignore_errors=True)
    _write_case_files(bundle, case, expected)
    firsts = []
    for k, prior in enumerate(before):
        folder = bundle / f"before_{k}"
        folder.mkdir()
        _write_case_files(folder, prior.case, prior.expected)
        _write_meta(folder, prior.case, prior.law, {"role": "run before the bundle's case, in the same process"})
        firsts.append(folder.name)
    command = replay_command(settings.spec, bundle, settings.timeout, settings.constant_inputs)
    _write_meta(bundle, case, law, {"backend": settings.spec, "timeout": settings.timeout,
                                    "constant_inputs": settings.constant_inputs, "failure": what,
                                    "command": command, "before": firsts})
    (bundle / "command.txt").write_text(command + "\n", encoding="utf-8")
    return bundle, command


def _write_case_files(bundle: Path, case: Case, expected: list[np.ndarray] | None) -> None:
    model = case_model(case, output_types(case, expected), output_shapes(case, expected))
    onnx.save_model(model, bundle / "model.onnx")
    declared = {v.name: v.type for v in [*model.graph.input, *model.graph.output]}
    for old in [*bundle.glob("*put_*.pb"), *bundle.glob("outer_*.pb")]:  # a bundle rewritten for another case
        old.unlink()
    for i, (name, x) in enumerate(zip(case.input_names, case.inputs, strict=True)):
        if name and (x is not None or name in declared):  # an empty optional input is named and None
            save_value(bundle / f"input_{i}.pb", x, name, declared.get(name))
    for k, (name, x) in enumerate(sorted(case.outer.items())):  # the model's graph inputs after the node's
        save_value(bundle / f"outer_{k}.pb", x, name, declared.get(name))
    if expected is not None:
        for i, (name, y) in enumerate(zip(case.output_names, expected, strict=False)):
            save_value(bundle / f"output_{i}.pb", y, name, declared.get(name))


def _write_meta(bundle: Path, case: Case, law: bool, extra: dict[str, Any]) -> None:
    meta = {"domain": case.version.domain, "op": case.version.name, "since": case.version.since,
            "dtype": case.dtype, "type_bindings": case.type_bindings, "example": case.example, "law": law, **extra}
    (bundle / "case.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def load_bundle(bundle: Path) -> tuple[Case, list[np.ndarray] | None, dict[str, object]]:
    """The case a bundle holds, its expected outputs and its metadata."""
    from conformance.registry import current_registry
    from opset.infer import infer_shapes, resolve_attributes

    meta = json.loads((bundle / "case.json").read_text(encoding="utf-8"))
    version = current_registry().op(meta["domain"], meta["op"]).version(int(meta["since"]))
    model = onnx.load_model(bundle / "model.onnx")
    node = model.graph.node[0]
    declared = {v.name: v.type for v in [*model.graph.input, *model.graph.output]}
    inputs = [load_value(bundle / f"input_{i}.pb", declared[n]) if n and (bundle / f"input_{i}.pb").is_file()
              else None for i, n in enumerate(node.input)]
    # graph inputs that are not the node's: values its graph attributes read from the enclosing graph
    outer_names = [i.name for i in model.graph.input if i.name not in node.input]
    outer = {n: load_value(bundle / f"outer_{k}.pb", declared[n]) for k, n in enumerate(outer_names)
             if (bundle / f"outer_{k}.pb").is_file()}
    shapes = [shape_of(x) for x in inputs]
    given = node_attributes(node)
    outputs = list(node.output)
    expected = None
    if (bundle / "output_0.pb").is_file():
        expected = [load_value(bundle / f"output_{i}.pb", declared[n]) for i, n in enumerate(outputs)
                    if (bundle / f"output_{i}.pb").is_file()]
    # small int inputs give their values, as when the case was drawn (a position, a split's lengths)
    values = {p.name: x.ravel().tolist() for p, x in zip(version.inputs, inputs, strict=False)
              if isinstance(x, np.ndarray) and x.dtype.kind in "iub" and x.size <= 64}
    inferred = infer_shapes(version, shapes, given, values, output_count=len(outputs)).outputs
    case = Case(version=version, dtype=meta["dtype"], type_bindings=dict(meta["type_bindings"]),
                attributes=node_values(resolve_attributes(version, given, shapes)), node_attributes=given,
                inputs=inputs,
                input_names=list(node.input), output_names=outputs,
                expected_shapes=[_int_shape(s) for s in inferred[:len(outputs)]], example=meta.get("example"),
                outer=outer)
    return case, expected, meta


def _int_shape(shape: Any) -> Any:
    """A tensor's shape, or a sequence's element shapes, when every dim is an int."""
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return [int(d) for d in shape]
    if isinstance(shape, list) and shape and all(isinstance(s, list) and all(isinstance(d, int) for d in s)
                                                 for s in shape):
        return [[int(d) for d in s] for s in shape]
    return None

