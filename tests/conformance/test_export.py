"""`conform export DIR`: the corpus loads with onnx's own loader and runs under onnx's own runner, `conform --suite DIR`
passes it on the reference and fails a wrong backend on it, and one seed writes the same bytes every time."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unittest
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.backend.test.loader as onnx_loader
import pytest
from onnx.backend.base import Backend, BackendRep
from onnx.backend.test.runner import Runner

from conformance.backends.reference import ReferenceBackend
from conformance.models.runner import ModelRunner
from conformance.suites.export import main as export_main
from conformance.suites.folder import folder_cases
from tests.helpers.conform_cli import tree_bytes

ROOT = Path(__file__).resolve().parents[2]
WRONG = "tests.conformance.wrong_backends"
# a multi-output op (TopK), optional inputs left off (Clip, Conv's bias), strings (StringNormalizer), sequences
# (SequenceInsert), maps (DictVectorizer) and sequences of maps (ZipMap), outputs drawn at random (Dropout in
# training), no kernel (GreedySearch)
OPS = ["Relu", "TopK", "Clip", "Conv", "StringNormalizer", "SequenceInsert", "DictVectorizer", "ZipMap", "Dropout",
       "GreedySearch"]
MAP_OPS = ("DictVectorizer", "ZipMap")


def conform(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=900)


def export(out: Path, *args: str) -> None:
    assert export_main([str(out), *args]) == 0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "corpus"
    export(out, *[x for op in OPS for x in ("--op", op)], "--draws", "2", "--seed", "0")
    return out


FLOATING = {onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16}


def manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text())
    return data


def test_every_case_loads_with_onnx_loader_and_passes_its_full_check(corpus: Path) -> None:
    cases = onnx_loader.load_model_tests(data_dir=str(corpus.parent), kind=corpus.name)
    listed = {c["name"] for c in manifest(corpus)["cases"]}
    assert {c.name for c in cases} == listed and len(listed) > 100
    for case in cases:
        assert case.model_dir is not None
        model = onnx.load(Path(case.model_dir) / "model.onnx")
        onnx.checker.check_model(model, full_check=True)
        for output in model.graph.output:  # typed and shaped
            kind = output.type.WhichOneof("value")
            assert kind is not None, f"{case.name}: output {output.name} untyped"
            if kind == "tensor_type":
                assert output.type.tensor_type.HasField("shape"), f"{case.name}: output {output.name} unshaped"
        data = Path(case.model_dir) / "test_data_set_0"
        assert len(list(data.glob("input_*.pb"))) == len(model.graph.input)
        assert len(list(data.glob("output_*.pb"))) == len(model.graph.output)
        # a floating output has its tolerance (the registry's) in data.json, and onnx's loader reads it
        if any(o.type.tensor_type.elem_type in FLOATING for o in model.graph.output):
            tolerance = json.loads((Path(case.model_dir) / "data.json").read_text())
            assert (case.rtol, case.atol) == (tolerance["rtol"], tolerance["atol"]) and tolerance["rtol"] > 0
        elif model.graph.output[0].type.tensor_type.elem_type in (onnx.TensorProto.INT64, onnx.TensorProto.STRING):
            assert not (Path(case.model_dir) / "data.json").exists(), case.name


def test_case_names_say_the_cell_and_are_what_onnx_runner_takes(corpus: Path) -> None:
    entries = manifest(corpus)["cases"]
    names = [e["name"] for e in entries]
    assert len(names) == len(set(names))
    for e in entries:
        dtype = re.sub(r"[^A-Za-z0-9]+", "_", e["dtype"]).strip("_")
        prefix = f"test_{e['domain'].replace('.', '_')}__{e['op']}__v{e['since']}__{dtype}__"
        assert e["name"].startswith(prefix), (e["name"], prefix)
        tail = e["name"][len(prefix):]
        assert tail.isdigit() or tail.startswith("example_"), e["name"]
        assert (corpus / e["name"] / "model.onnx").is_file()


def _only_node(folder: Path) -> onnx.NodeProto:
    node: onnx.NodeProto = onnx.load(folder / "model.onnx").graph.node[0]
    return node


def test_the_corpus_holds_the_value_kinds_of_its_ops(corpus: Path) -> None:
    names = [e["name"] for e in manifest(corpus)["cases"]]
    topk = next(n for n in names if "__TopK__v11__float__" in n)
    assert sorted(p.name for p in (corpus / topk / "test_data_set_0").glob("output_*.pb")) == \
        ["output_0.pb", "output_1.pb"]
    # an optional input left off: fewer node inputs than the op has, or an empty name
    clips = [n for n in names if "__Clip__v13__" in n]
    assert any(len(_only_node(corpus / n).input) < 3 or "" in _only_node(corpus / n).input for n in clips)
    strings = [n for n in names if "__StringNormalizer__" in n]
    model = onnx.load(corpus / strings[0] / "model.onnx")
    assert model.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.STRING
    sequence = next(n for n in names if "__SequenceInsert__v11__seq_tensor_float__" in n)
    proto = onnx.SequenceProto()
    proto.ParseFromString((corpus / sequence / "test_data_set_0" / "input_0.pb").read_bytes())
    assert proto.elem_type == onnx.SequenceProto.TENSOR
    maps = [n for n in names if "__DictVectorizer__" in n]
    proto_map = onnx.MapProto()
    proto_map.ParseFromString((corpus / maps[0] / "test_data_set_0" / "input_0.pb").read_bytes())
    assert proto_map.key_type in (onnx.TensorProto.STRING, onnx.TensorProto.INT64)
    zipmap = next(n for n in names if "__ZipMap__" in n)
    proto_seq = onnx.SequenceProto()
    proto_seq.ParseFromString((corpus / zipmap / "test_data_set_0" / "output_0.pb").read_bytes())
    assert proto_seq.elem_type == onnx.SequenceProto.MAP


def test_the_readme_and_manifest_say_what_was_left_out_and_why(corpus: Path) -> None:
    readme = (corpus / "README.txt").read_text()
    left = manifest(corpus)["left_out"]
    random = [x for x in left if x["reason"] == "outputs drawn at random"]
    assert random and all("Dropout" in x["label"] for x in random)
    assert "outputs drawn at random" in readme and "onnx defines no generator" in readme
    greedy = [x for x in left if "GreedySearch" in x["label"]]
    assert greedy and greedy[0]["reason"] == "no reference kernel" and "decoding loop" in greedy[0]["detail"]
    assert "com.microsoft@1::GreedySearch: a whole decoding loop" in readme
    assert "ai.onnx.ml@1::DictVectorizer, ai.onnx.ml@1::ZipMap" in readme  # onnx's runner reads no MapProto
    # Dropout where nothing is random (inference, ratio 0) is exported
    assert any("__Dropout__" in e["name"] for e in manifest(corpus)["cases"])


class _RunnerBackend(Backend):
    """An onnx.backend Backend that runs a model node by node with `executor` (conform's model runner)."""

    executor: Any = ReferenceBackend()

    @classmethod
    def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> BackendRep:
        return _RunnerRep(model, cls.executor)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        return device == "CPU"


class _RunnerRep(BackendRep):
    def __init__(self, model: onnx.ModelProto, executor: Any) -> None:
        self.runner = ModelRunner(model, executor)
        self.names = [i.name for i in model.graph.input]

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        return tuple(self.runner.run(dict(zip(self.names, inputs, strict=True))).values())


def _onnx_runner_results(corpus: Path, backend: type[Backend], keep: Any) -> unittest.TestResult:
    """Run the corpus's cases that `keep(name)` selects under onnx's own backend-test runner (one test per case and
    device: the CUDA ones are skipped)."""
    runner = Runner(backend, __name__)
    for case in onnx_loader.load_model_tests(data_dir=str(corpus.parent), kind=corpus.name):
        if keep(case.name):
            runner._add_model_test(case, "Conform")  # the public API lists only onnx's own kinds
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(runner.test_cases["OnnxBackendConformModelTest"])
    result = unittest.TestResult()
    suite.run(result)
    return result


def _onnx_runner_can_read(corpus: Path) -> Iterator[str]:
    """The cases onnx's runner can read and compare: no maps (it reads no MapProto), no sequence output holding 0-d
    tensors (its comparison takes each element for a list of outputs and fails on len() of a 0-d array)."""
    from conformance.suites.folder import load_case

    for e in manifest(corpus)["cases"]:
        outputs = load_case(str(corpus), e["name"]).data_sets[0][1]
        if e["op"] not in MAP_OPS and not any(isinstance(y, list) and any(np.ndim(x) == 0 for x in y)
                                                   for y in outputs):
            yield e["name"]


def test_onnx_runner_passes_the_reference_and_fails_a_wrong_backend(corpus: Path) -> None:
    """onnx's runner over the corpus (what it can read, `_onnx_runner_can_read`): our kernels pass every case, a Conv
    that ignores its dilations fails some."""
    cases = set(_onnx_runner_can_read(corpus))
    assert any("__SequenceInsert__" in n for n in cases)
    result = _onnx_runner_results(corpus, _RunnerBackend, cases.__contains__)
    assert result.testsRun == 2 * len(cases) and all("CUDA" in why for _, why in result.skipped)
    assert len(result.skipped) == len(cases)
    assert not result.failures and not result.errors, (result.failures + result.errors)[:3]

    from tests.conformance.wrong_backends.conv_ignores_dilations import Backend as WrongConv

    class Wrong(_RunnerBackend):
        executor = WrongConv()

    convs = {n for n in cases if "__Conv__" in n}
    wrong = _onnx_runner_results(corpus, Wrong, convs.__contains__)
    assert wrong.failures and all("__Conv__" in str(test) for test, _ in wrong.failures)


def test_onnx_runner_with_onnxruntime_passes_the_float_cases_it_implements(corpus: Path) -> None:
    pytest.importorskip("onnxruntime")
    import onnxruntime.backend as ort_backend

    # ai.onnx's (onnxruntime.backend runs released onnx opsets only: com.ms.internal.nhwc's Conv is skipped)
    wanted = re.compile(r"test_ai_onnx__(Relu__v14|TopK__v11|Conv__v11)__float__")
    chosen = {n for n in _onnx_runner_can_read(corpus) if wanted.match(n)}
    result = _onnx_runner_results(corpus, ort_backend, chosen.__contains__)
    assert result.testsRun - len(result.skipped) == len(chosen) > 5
    assert not result.failures and not result.errors, (result.failures + result.errors)[:3]


def test_conform_suite_passes_the_reference_per_cell(corpus: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = conform("--suite", str(corpus), "--backend", "reference", "--report", str(report))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    cells = json.loads(report.read_text())["cells"]
    listed = {f"{e['domain']}@{e['since']}::{e['op']}[{e['dtype']}]" for e in manifest(corpus)["cases"]}
    assert set(cells) == listed
    assert all(c["status"] == "pass" for c in cells.values()), {k: c for k, c in cells.items()
                                                                if c["status"] != "pass"}


def test_conform_suite_fails_a_wrong_backend_with_a_repro(corpus: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = conform("--suite", str(corpus), "--backend", f"{WRONG}.conv_ignores_dilations", "--op", "Conv",
                     "--report", str(report), "--repro-dir", str(tmp_path / "repro"))
    assert result.returncode == 1, result.stdout[-3000:]
    cells = json.loads(report.read_text())["cells"]
    failed = {k: c for k, c in cells.items() if c["status"] == "fail"}
    assert failed and all("::Conv[" in k for k in failed)
    bundle = Path(next(iter(failed.values()))["repro"])
    assert (bundle / "model.onnx").is_file() and (bundle / "test_data_set_0" / "output_0.pb").is_file()
    command = (bundle / "command.txt").read_text().split()
    assert command[:3] == ["conform", "--suite", str(corpus)]
    again = conform(*command[1:])
    assert again.returncode == 1


def test_a_folder_without_manifest_reports_the_cells_its_models_show(corpus: Path, tmp_path: Path) -> None:
    import shutil

    chosen = [e for e in manifest(corpus)["cases"] if e["op"] in ("Relu", "TopK", "Conv")][:12]
    bare = tmp_path / "bare" / "node"  # cases one folder down, as onnx's data/node/<case> were
    for e in chosen:
        shutil.copytree(corpus / e["name"], bare / e["name"])
    found = {c.name.split("/")[-1]: (c.domain, c.op, c.since, c.dtype) for c in folder_cases(tmp_path / "bare")}
    assert found == {e["name"]: (e["domain"], e["op"], e["since"], e["dtype"]) for e in chosen}


def test_two_exports_with_one_seed_are_byte_identical(tmp_path: Path) -> None:
    """The same seed writes the same bytes, with any number of processes; another seed draws other cases."""
    args = ["--op", "Conv", "--op", "TopK", "--op", "SequenceInsert", "--draws", "2"]
    export(tmp_path / "a", *args, "--seed", "7")
    export(tmp_path / "b", *args, "--seed", "7", "--jobs", "2")
    export(tmp_path / "c", *args, "--seed", "8")
    a, b, c = (tree_bytes(tmp_path / x) for x in "abc")
    assert a.keys() == b.keys() and len(a) > 50
    assert [k for k in a if a[k] != b[k]] == []
    assert any(c.get(k) != v for k, v in a.items() if "example" not in k)


def test_export_replaces_a_previous_export_and_refuses_other_folders(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    export(out, "--op", "Relu", "--draws", "1")
    export(out, "--op", "Abs", "--draws", "1")  # a previous export is replaced, not mixed in
    assert {e["op"] for e in manifest(out)["cases"]} == {"Abs"}
    assert not any("Relu" in p.name for p in out.iterdir())
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    result = conform("export", str(other), "--op", "Relu")
    assert result.returncode == 2 and "not empty" in result.stderr and "Traceback" not in result.stderr
    assert (other / "notes.txt").read_text() == "mine"
    result = conform("export", str(tmp_path / "new"), "--op", "NoSuchOpAnywhere")
    assert result.returncode == 2 and "no op matches" in result.stderr


def test_suite_folder_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = conform("--suite", str(tmp_path / "absent"), "--backend", "reference")
    assert missing.returncode == 2 and "not properties, onnx-node or a folder" in missing.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = conform("--suite", str(empty), "--backend", "reference")
    assert result.returncode == 2 and "holds no case" in result.stderr and "Traceback" not in result.stderr


def test_suite_folder_selection_matching_nothing_exits_2(corpus: Path) -> None:
    result = conform("--suite", str(corpus), "--backend", "reference", "--op", "NoSuchOpAnywhere")
    assert result.returncode == 2 and "matches the selection" in result.stderr


def test_every_written_value_reads_back_as_the_model_declares(corpus: Path) -> None:
    """The folder reader's values (conformance.value_protos) agree with onnx's own reading of tensors."""
    from conformance.suites.folder import load_case

    name = next(e["name"] for e in manifest(corpus)["cases"] if e["op"] == "Conv")
    case = load_case(str(corpus), name)
    raw = onnx.TensorProto()
    raw.ParseFromString((corpus / name / "test_data_set_0" / "input_0.pb").read_bytes())
    np.testing.assert_array_equal(case.data_sets[0][0][0], onnx.numpy_helper.to_array(raw))
