"""A folder of cases in the ONNX backend test-data layout as a conformance source: `conform --suite DIR --backend X`.

A case is a folder holding `model.onnx` and `test_data_set_<n>/input_<k>.pb`, `output_<k>.pb` (the k-th graph
input's value and the k-th graph output's expected one), with an optional `data.json` giving `rtol` and `atol`
(onnx's loader defaults otherwise): what `conform export` writes, and what onnx's node data on disk and
onnxruntime's test data hold. Cases are found at any depth under DIR. Each runs as onnx's node-suite cases do
(`onnx_node.check_data_sets`: the model node by node on the backend, random outputs by their law); it reports under
the cell the folder's `manifest.json` names (`conform export` writes one), else under the cell its model shows
(the op of its first node, the version its opset import resolves to, its first input's type).
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import onnx
from google.protobuf.message import DecodeError

from conformance.runner.settings import CheckSettings
from conformance.suites.onnx_node import SuiteCase, case_cell, check_data_sets, suite_failure
from conformance.value_protos import load_value

MANIFEST = "manifest.json"
DEFAULT_RTOL, DEFAULT_ATOL = 1e-3, 1e-7  # onnx's loader's, for a case without data.json


class FolderError(ValueError):
    """A folder that cannot be run as a suite; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class FolderCase:
    """One case folder read: the model, its data sets (inputs, expected outputs) and tolerances."""

    model: onnx.ModelProto
    data_sets: list[tuple[list[Any], list[Any]]]
    rtol: float
    atol: float


def case_folders(root: Path) -> list[str]:
    """The case folders under `root` (those holding model.onnx), as paths relative to it, sorted."""
    return sorted(p.parent.relative_to(root).as_posix() for p in root.rglob("model.onnx")
                  if p.is_file() and p.parent != root)


def folder_cases(root: Path, patterns: Sequence[str] = (), domains: Sequence[str] = ()) -> list[SuiteCase]:
    """The cases of `root` with their cells, those whose op or name matches a glob of `patterns` and whose domain is
    one of `domains` (all when empty). FolderError when `root` holds no case or its manifest is unusable."""
    names = case_folders(root)
    if not names:
        raise FolderError(f"{root} holds no case (no <case>/model.onnx under it)")
    manifest = root / MANIFEST
    cases = _manifest_cases(manifest, set(names)) if manifest.is_file() else [_model_cell(root, n) for n in names]
    return [c for c in cases
            if (not patterns or any(fnmatch.fnmatchcase(c.op, p) or fnmatch.fnmatchcase(c.name, p) for p in patterns))
            and (not domains or c.domain in domains)]


def _manifest_cases(manifest: Path, present: set[str]) -> list[SuiteCase]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        cases = [SuiteCase(str(e["name"]), str(e["domain"]), str(e["op"]), int(e["since"]), str(e["dtype"]))
                 for e in data["cases"]]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        raise FolderError(f"{manifest}: not a case manifest ({type(e).__name__}: {e})") from e
    missing = [c.name for c in cases if c.name not in present]
    if missing:
        raise FolderError(f"{manifest} lists {len(missing)} case(s) whose folder holds no model.onnx, first "
                          f"{missing[0]!r}")
    return cases


def _model_cell(root: Path, name: str) -> SuiteCase:
    model = _load_model(root / name)
    if not model.graph.node:
        raise FolderError(f"{root / name}/model.onnx: the graph has no node")
    sets = data_set_folders(root / name)
    inputs = _values(sets[0], "input", model.graph.input) if sets else []
    return case_cell(name, model, model.graph.node[0], inputs)


def _load_model(folder: Path) -> onnx.ModelProto:
    try:
        return onnx.load_model(folder / "model.onnx")
    except (OSError, DecodeError) as e:
        raise FolderError(f"{folder}/model.onnx: not an ONNX model ({type(e).__name__}: {e})") from e


def data_set_folders(case: Path) -> list[Path]:
    """`test_data_set_<n>` folders of a case, by n."""
    found = [p for p in case.glob("test_data_set_*") if p.is_dir() and re.fullmatch(r"test_data_set_\d+", p.name)]
    return sorted(found, key=lambda p: int(p.name.rsplit("_", 1)[1]))


def _values(folder: Path, kind: str, infos: Sequence[onnx.ValueInfoProto]) -> list[Any]:
    """`<kind>_0.pb`, `<kind>_1.pb` ... of a data set, each read as the type of the graph input (output) at its
    position (as onnx's runner pairs them)."""
    count = len(list(folder.glob(f"{kind}_*.pb")))
    if count > len(infos):
        raise FolderError(f"{folder}: {count} {kind} files but the model has {len(infos)} graph {kind}s")
    values = []
    for k in range(count):
        path = folder / f"{kind}_{k}.pb"
        if not path.is_file():
            raise FolderError(f"{folder}: {kind}_{k}.pb is missing ({count} {kind} files)")
        try:
            values.append(load_value(path, infos[k].type))
        except (DecodeError, ValueError, TypeError) as e:  # not a proto, or content numpy_helper cannot convert
            raise FolderError(f"{path}: not a value of {infos[k].name}'s type ({type(e).__name__}: {e})") from e
    return values


@functools.cache
def load_case(root: str, name: str) -> FolderCase:
    folder = Path(root) / name
    model = _load_model(folder)
    sets = [(_values(d, "input", model.graph.input), _values(d, "output", model.graph.output))
            for d in data_set_folders(folder)]
    rtol, atol = DEFAULT_RTOL, DEFAULT_ATOL
    if (folder / "data.json").is_file():
        data = json.loads((folder / "data.json").read_text(encoding="utf-8"))
        rtol, atol = float(data.get("rtol", rtol)), float(data.get("atol", atol))
    return FolderCase(model, sets, rtol, atol)


def check_folder_case(root: str, name: str, backend: Any, settings: CheckSettings) -> None:
    """Every data set of the case `root/name` on `backend`; raises Unsupported (NodeUnsupported) or
    ConformanceFailure."""
    case = load_case(root, name)
    node = case.model.graph.node[0] if case.model.graph.node else None
    check_data_sets(name, case, node, backend, settings, lambda k, what: _fail(root, name, k, settings, what),
                    source="the corpus")


def _fail(root: str, name: str, data_set: int, settings: CheckSettings, what: str) -> NoReturn:
    command = shlex.join(["conform", "--suite", root, "--backend", settings.spec, "--op", name])
    written = ""
    if settings.repro_dir is not None:
        bundle = settings.repro_dir / f"folder__{name.replace('/', '__')}"
        try:
            shutil.copytree(Path(root) / name, bundle, dirs_exist_ok=True)
            meta = {"suite": root, "case": name, "data_set": data_set, "backend": settings.spec, "failure": what,
                    "command": command}
            (bundle / "case.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
            (bundle / "command.txt").write_text(command + "\n", encoding="utf-8")
            settings.stats.repro = str(bundle)
            written = command
        except OSError as e:
            settings.stats.write_error = f"cannot write a repro bundle in {settings.repro_dir}: {e.strerror or e}"
    raise suite_failure(f"{name} (data set {data_set})", what, written)
