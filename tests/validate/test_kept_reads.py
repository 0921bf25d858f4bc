"""What validation keeps of what it read (node records by their bytes, declarations, small initializers) never
changes a result: a model changed in place is read again, a kept record shares nothing with the model it was read
from, a declaration drawing a fresh dim is read in every run, and a bad initializer is reported in every run."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from opset.validate import ValidationResult, check_model, forget_outcomes
from opset.validate.graph import read_node

F = TensorProto.FLOAT


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
           inits: list[onnx.TensorProto] | None = None) -> onnx.ModelProto:
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs, inits or []),
                              opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model


def _pools() -> onnx.ModelProto:
    """A pool, and a Constant too large to be kept by its bytes (read from its proto in every run)."""
    x = helper.make_tensor_value_info("x", F, [1, 2, 8, 8])
    big = numpy_helper.from_array(np.zeros(600, np.float32), "big")
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], kernel_shape=[2, 2]),
             helper.make_node("Constant", [], ["c"], value=big),
             helper.make_node("Relu", ["p"], ["y"])]
    return _model(nodes, [x], [helper.make_tensor_value_info(n, F, None) for n in ("y", "c")])


def _same(a: ValidationResult, b: ValidationResult) -> None:
    assert a.diagnostics == b.diagnostics
    assert list(a.facts.items()) == list(b.facts.items())
    assert list(a.inferred.items()) == list(b.inferred.items())


def test_a_model_changed_in_place_is_read_again() -> None:
    model = _pools()
    before = check_model(model)
    assert before.inferred["p"] == (1, 2, 7, 7)
    pool = model.graph.node[0]
    del pool.attribute[0].ints[:]
    pool.attribute[0].ints.extend([4, 4])
    after = check_model(model)
    assert after.inferred["p"] == (1, 2, 5, 5)
    _same(after, check_model(model, fast=False))


def test_a_kept_record_shares_nothing_with_its_model() -> None:
    model = _pools()
    first = check_model(model)
    record = read_node(model.graph.node[0])
    attr = model.graph.node[0].attribute[0]
    assert record.attrs[0] == attr and record.attrs[0] is not attr
    original = onnx.ModelProto.FromString(model.SerializeToString())
    model.graph.node[0].attribute[0].ints[0] = 5  # the model changes after its validation ...
    _same(check_model(original), first)  # ... and a model of the old bytes validates as the first did
    assert read_node(original.graph.node[0]).attrs[0].ints[:] == [2, 2]


def test_a_declaration_with_an_unnamed_dim_is_read_in_every_run() -> None:
    """A dim nobody named is a fresh dim of its run: a declaration kept from an earlier model would bring that run's
    symbol along, which this run may have drawn for another value (here `z`'s, taking `x` for the same length)."""
    def declared(name: str) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, F, [None, 3])

    out = helper.make_tensor_value_info("s", F, None)
    first = _model([helper.make_node("Relu", ["x"], ["s"])], [declared("x")], [out])
    second = _model([helper.make_node("Add", ["z", "x"], ["s"])], [declared("z"), declared("x")], [out])
    plain = check_model(second, fast=False)
    assert plain.facts["x"].shape != plain.facts["z"].shape
    check_model(first)
    for _ in range(2):
        _same(check_model(second), plain)


def test_a_bad_small_initializer_is_reported_in_every_run() -> None:
    bad = numpy_helper.from_array(np.array([1, 2], np.int64), "shape")
    bad.raw_data = bad.raw_data[:12]  # 12 bytes for two int64 values
    x = helper.make_tensor_value_info("x", F, [2, 2])
    y = helper.make_tensor_value_info("y", F, None)
    model = _model([helper.make_node("Reshape", ["x", "shape"], ["y"])], [x], [y], [bad])
    plain = check_model(model, fast=False)
    assert [d.check for d in plain.diagnostics].count("tensor_data") == 1
    for _ in range(3):
        _same(check_model(model), plain)


def test_forget_outcomes_forgets_what_was_read() -> None:
    from opset.validate import facts, graph, outcomes, tensors

    model = _model([helper.make_node("Reshape", ["x", "shape"], ["y"])], [helper.make_tensor_value_info("x", F, [4])],
                   [helper.make_tensor_value_info("y", F, None)], [numpy_helper.from_array(np.array([2, 2]), "shape")])
    check_model(model)
    kept = [graph._READ, facts._DECLARED, tensors._KEPT]
    assert all(len(store) > 0 for store in kept)
    forget_outcomes()
    assert all(len(store) == 0 for store in kept)
    stores = list(outcomes._STORES.values())  # the node outcomes, the import findings and plain versions too
    assert len(stores) >= 6 and all(len(store) == 0 for store in stores)


def test_nodes_whose_long_attributes_differ_are_told_apart() -> None:
    """Attributes over `DIGESTED_ATTRIBUTE_BYTES` stand in signatures by a digest: two Constants of 300 floats, one
    [300] and one [150, 2], and a third like the first, replay only where they are alike."""
    from opset.validate.graph import DIGESTED_ATTRIBUTE_BYTES

    flat = numpy_helper.from_array(np.zeros(300, np.float32))
    assert flat.ByteSize() > DIGESTED_ATTRIBUTE_BYTES
    nodes = [helper.make_node("Constant", [], ["a"], value=flat),
             helper.make_node("Constant", [], ["b"], value=numpy_helper.from_array(np.zeros((150, 2), np.float32))),
             helper.make_node("Constant", [], ["c"], value=flat)]
    model = _model(nodes, [], [helper.make_tensor_value_info(n, F, None) for n in "abc"])
    plain = check_model(model, fast=False)
    assert plain.facts["a"].shape == (300,) and plain.facts["b"].shape == (150, 2)
    for _ in range(2):
        _same(check_model(model), plain)
