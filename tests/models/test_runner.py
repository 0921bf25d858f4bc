"""The model runner against onnx.reference on multi-node models, and `opset run` / `opset infer` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from conformance.models import ModelRunError, ModelRunner, NodeUnsupported, run_model

F = TensorProto.FLOAT


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto] | None = None, functions: list[onnx.FunctionProto] | None = None,
           opset: int = 17) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits or [])
    imports = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("local", 1)] if functions else [])
    model = helper.make_model(graph, opset_imports=imports, functions=functions or [])
    model.ir_version = 8
    return model


def _block(*, in_order: bool = False) -> onnx.ModelProto:
    """Conv -> Relu -> (Add with a skip) -> two outputs; out of order on purpose unless `in_order`
    (onnx.reference and onnx's shape inference need graph order)."""
    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    nodes = [
        helper.make_node("Add", ["r", "x_skip"], ["sum"]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["x_skip"]),
        helper.make_node("GlobalAveragePool", ["sum"], ["pooled"]),
    ]
    if in_order:
        nodes = [nodes[3], nodes[2], nodes[1], nodes[0], nodes[4]]
    inits = [w, numpy_helper.from_array(np.array([0], np.int64), "starts"),
             numpy_helper.from_array(np.array([1], np.int64), "ends"),
             numpy_helper.from_array(np.array([1], np.int64), "axes")]
    return _model(nodes, [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])],
                  [helper.make_tensor_value_info("sum", F, None), helper.make_tensor_value_info("pooled", F, None)],
                  inits)


def test_a_block_out_of_order_matches_onnx_reference() -> None:
    model = _block()
    x = np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)
    ours = run_model(model, {"x": x})
    theirs = ReferenceEvaluator(_block(in_order=True)).run(None, {"x": x})
    assert list(ours) == ["sum", "pooled"]
    for got, want in zip(ours.values(), theirs, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_a_model_local_function_is_expanded_with_its_attributes() -> None:
    leaky = helper.make_node("LeakyRelu", ["a"], ["b"])
    leaky.attribute.append(helper.make_attribute_ref("alpha", F_ATTR))
    body = [leaky, helper.make_node("Add", ["b", "a"], ["y"])]
    function = helper.make_function("local", "LeakyPlus", ["a"], ["y"], body, [helper.make_opsetid("", 17)],
                                    attributes=["alpha"])
    node = helper.make_node("LeakyPlus", ["x"], ["out"], domain="local", alpha=0.5)
    model = _model([node], [helper.make_tensor_value_info("x", F, [4])], [helper.make_tensor_value_info("out", F, [4])],
                   functions=[function])
    x = np.array([-2, -1, 1, 2], np.float32)
    np.testing.assert_allclose(run_model(model, {"x": x})["out"], np.where(x < 0, 0.5 * x, x) + x)


F_ATTR = onnx.AttributeProto.FLOAT


def test_missing_inputs_unknown_ops_and_cycles_are_located_errors() -> None:
    model = _block()
    with pytest.raises(ModelRunError, match="no value given for graph input"):
        run_model(model, {})
    with pytest.raises(ModelRunError, match="not an input of the graph"):
        run_model(model, {"x": np.zeros((1, 3, 8, 8), np.float32), "y": np.zeros(1)})
    unknown = _model([helper.make_node("NoSuchOp", ["x"], ["y"])], [helper.make_tensor_value_info("x", F, [1])],
                     [helper.make_tensor_value_info("y", F, [1])])
    with pytest.raises(NodeUnsupported, match=r"node 0 .*NoSuchOp"):
        run_model(unknown, {"x": np.zeros(1, np.float32)})
    cycle = _model([helper.make_node("Relu", ["b"], ["a"]), helper.make_node("Relu", ["a"], ["b"])],
                   [helper.make_tensor_value_info("x", F, [1])], [helper.make_tensor_value_info("a", F, [1])])
    with pytest.raises(ModelRunError, match="cycle"):
        ModelRunner(cycle)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from opset.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_opset_run_writes_one_npy_per_output(tmp_path: Path) -> None:
    path = tmp_path / "block.onnx"
    onnx.save(_block(), path)
    x = np.random.default_rng(2).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    result = _cli("run", str(path), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "out"),
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    theirs = ReferenceEvaluator(_block(in_order=True)).run(None, {"x": x})
    for name, want in zip(("sum", "pooled"), theirs, strict=True):
        np.testing.assert_allclose(np.load(tmp_path / "out" / f"{name}.npy"), want, rtol=1e-5, atol=1e-5)
    random = _cli("run", str(path), "--output-dir", str(tmp_path / "rand"), cwd=tmp_path)
    assert random.returncode == 0 and "random float32[1, 3, 8, 8]" in random.stdout


def test_opset_run_writes_a_sequence_of_maps_as_npz_with_its_layout(tmp_path: Path) -> None:
    """ZipMap's output (a sequence of maps) goes into `<name>.npz`: its arrays and the JSON layout under
    `__layout__` that `conformance.containers.unpack` rebuilds it from."""
    from conformance.containers import unpack

    node = helper.make_node("ZipMap", ["x"], ["z"], domain="ai.onnx.ml", classlabels_int64s=[4, 2])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", F, [2, 2])],
                              [onnx.ValueInfoProto(name="z")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 1)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "zip.onnx")
    x = np.array([[0.25, 0.75], [1.0, 0.0]], np.float32)
    np.save(tmp_path / "x.npy", x)
    result = _cli("run", "zip.onnx", "--input", "x=x.npy", "--output-dir", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "seq[map{2 entries}, map{2 entries}]" in result.stdout
    with np.load(tmp_path / "out" / "z.npz") as stored:
        layout = json.loads(str(stored["__layout__"]))
        maps = unpack(layout, {k: stored[k] for k in stored.files})["z"]
    assert [{k: float(v) for k, v in m.items()} for m in maps] == [{4: 0.25, 2: 0.75}, {4: 1.0, 2: 0.0}]


@pytest.mark.parametrize(("args", "words"), [
    (["run", "missing.onnx"], "cannot read"),
    (["run", "block.onnx", "--input", "nope=x.npy"], "nope"),
    (["run", "block.onnx", "--input", "x"], "NAME=VALUE"),
    (["run", "block.onnx", "--dim", "N=-3"], "negative"),
])
def test_opset_run_usage_errors_exit_2_without_a_traceback(tmp_path: Path, args: list[str], words: str) -> None:
    onnx.save(_block(), tmp_path / "block.onnx")
    np.save(tmp_path / "x.npy", np.zeros((1, 3, 8, 8), np.float32))
    result = _cli(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr


def test_opset_infer_writes_value_info_like_onnx(tmp_path: Path) -> None:
    path, out = tmp_path / "block.onnx", tmp_path / "typed.onnx"
    onnx.save(_block(in_order=True), path)
    result = _cli("infer", str(path), "-o", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ours = onnx.load(out)
    theirs = onnx.shape_inference.infer_shapes(_block(in_order=True), strict_mode=True)

    def typed(m: onnx.ModelProto) -> dict[str, tuple[int, list[int]]]:
        values = [*m.graph.value_info, *m.graph.output]
        return {v.name: (v.type.tensor_type.elem_type, [d.dim_value for d in v.type.tensor_type.shape.dim])
                for v in values}

    assert typed(ours) == typed(theirs)
    onnx.checker.check_model(ours, full_check=True)


def test_validate_json_lists_every_value_with_type_and_shape(tmp_path: Path) -> None:
    model = _block(in_order=True)
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
    for output in model.graph.output:  # their rank, as onnx's checker wants it declared; dims unknown
        for _ in range(4):
            output.type.tensor_type.shape.dim.add()
    path = tmp_path / "block.onnx"
    onnx.save(model, path)
    result = _cli("validate", "--json", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    values = json.loads(result.stdout)["values"]
    assert values["c"] == {"type": "float", "shape": ["N", 4, 8, 8]}
    assert values["pooled"] == {"type": "float", "shape": ["N", 4, 1, 1]}
    assert values["x_skip"] == {"type": "float", "shape": ["N", 1, 8, 8]}


def test_an_unreadable_initializer_is_a_located_usage_error(tmp_path: Path) -> None:
    broken = onnx.TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[3], raw_data=b"\0" * 4)  # 1 of 3 floats
    model = _model([helper.make_node("Add", ["x", "w"], ["y"])], [helper.make_tensor_value_info("x", F, [3])],
                   [helper.make_tensor_value_info("y", F, [3])], [broken])
    onnx.save(model, tmp_path / "broken.onnx")
    result = _cli("run", str(tmp_path / "broken.onnx"), cwd=tmp_path)
    assert result.returncode == 2 and "initializer 'w'" in result.stderr and "Traceback" not in result.stderr


def _sequence_model() -> onnx.ModelProto:
    """SplitToSequence -> SequenceInsert (at the front) -> ConcatFromSequence, the sequence an output too."""
    nodes = [helper.make_node("SplitToSequence", ["x", "split"], ["seq"], axis=0),
             helper.make_node("SequenceInsert", ["seq", "extra", "zero"], ["longer"]),
             helper.make_node("ConcatFromSequence", ["longer"], ["joined"], axis=0)]
    inits = [numpy_helper.from_array(np.array([1, 2], np.int64), "split"),
             numpy_helper.from_array(np.array(0, np.int64), "zero")]
    return _model(nodes, [helper.make_tensor_value_info("x", F, [3, 2]),
                          helper.make_tensor_value_info("extra", F, [1, 2])],
                  [helper.make_tensor_sequence_value_info("longer", F, [None, 2]),
                   helper.make_tensor_value_info("joined", F, [4, 2])], inits)


def test_sequences_stay_lists_through_the_runner_and_match_onnx_reference() -> None:
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    extra = np.full((1, 2), -1, np.float32)
    ours = run_model(_sequence_model(), {"x": x, "extra": extra})
    theirs = ReferenceEvaluator(_sequence_model()).run(None, {"x": x, "extra": extra})
    assert isinstance(ours["longer"], list) and [t.shape for t in ours["longer"]] == [(1, 2), (1, 2), (2, 2)]
    for got, want in zip(ours["longer"], theirs[0], strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(ours["joined"], theirs[1])


def test_an_empty_optional_feed_reaches_the_node() -> None:
    optional = helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2]))
    model = _model([helper.make_node("OptionalHasElement", ["o"], ["h"])], [helper.make_value_info("o", optional)],
                   [helper.make_tensor_value_info("h", TensorProto.BOOL, [])], opset=18)
    assert run_model(model, {"o": None})["h"] == np.array(False)
    assert run_model(model, {"o": np.ones(2, np.float32)})["h"] == np.array(True)


def test_opset_run_writes_a_sequence_output_and_reads_one_back(tmp_path: Path) -> None:
    path = tmp_path / "seq.onnx"
    onnx.save(_sequence_model(), path)
    np.save(tmp_path / "x.npy", np.arange(6, dtype=np.float32).reshape(3, 2))
    result = _cli("run", str(path), "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", str(tmp_path / "out"),
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "output longer: seq[float32[1, 2], float32[1, 2], float32[2, 2]]" in result.stdout
    assert (tmp_path / "out" / "longer.npz").is_file() and (tmp_path / "out" / "joined.npy").is_file()
    # the sequence output, given back as a sequence input
    length = _model([helper.make_node("SequenceLength", ["s"], ["n"])],
                    [helper.make_tensor_sequence_value_info("s", F, None)],
                    [helper.make_tensor_value_info("n", TensorProto.INT64, [])])
    onnx.save(length, tmp_path / "len.onnx")
    result = _cli("run", str(tmp_path / "len.onnx"), "--input", f"s={tmp_path / 'out' / 'longer.npz'}",
                  "--output-dir", str(tmp_path / "n"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert np.load(tmp_path / "n" / "n.npy") == 3


def test_opset_run_makes_up_no_parameter(tmp_path: Path) -> None:
    """A graph input feeding Reshape's shape (a `parameter` input) gets no random value: the run stops, naming it;
    given with --input, the model runs."""
    node = helper.make_node("Reshape", ["x", "target"], ["y"], name="flatten_it")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", F, [2, 3]),
                                            helper.make_tensor_value_info("target", onnx.TensorProto.INT64, [1])],
                              [helper.make_tensor_value_info("y", F, [6])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    onnx.save(model, tmp_path / "reshape.onnx")
    refused = _cli("run", "reshape.onnx", cwd=tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip() == ("opset run: input 'target' feeds Reshape 'flatten_it' input 'shape' "
                                      "(ai.onnx@21::Reshape), a parameter: give it with --input target=FILE.npy")
    np.save(tmp_path / "target.npy", np.array([6], np.int64))
    given = _cli("run", "reshape.onnx", "--input", "target=target.npy", "--output-dir", "out", cwd=tmp_path)
    assert given.returncode == 0, given.stderr
    assert "input  x: random float32[2, 3]" in given.stdout and np.load(tmp_path / "out" / "y.npy").shape == (6,)
