"""Parameter structs of older Tengine writers (`tengine.older_layouts`, recognised by their size) and flag fields
that older writers left uninitialised (`flag: true`): read as Tengine reads them, written back as they were, and
reported as warnings, never errors."""

from __future__ import annotations

import numpy as np

from conformance.models import run_model
from conformance.registry import current_registry
from opset.tmfile import Model, read_tmfile, write_tmfile
from opset.tmfile.model import Buffer, Node, Subgraph, Tensor
from opset.tmfile.onnx_view import to_onnx
from opset.tmfile.params import param_structs
from opset.tmfile.validate import validate_tmfile

SLICE, RESHAPE, INPUT = 27, 23, 12


def _model(op_id: int, op_name: str, params: dict[str, object], older: int | None, in_dims: tuple[int, ...],
           out_dims: list[tuple[int, ...]]) -> Model:
    tensors = (Tensor(0, "x", 0, in_dims, 0, 3, 0),
               *(Tensor(1 + k, f"y{k}", 0, d, 0, 1, 0) for k, d in enumerate(out_dims)))
    nodes = (Node(0, "x", INPUT, 1, None, {}, None, (), (0,)),
             Node(1, "op", op_id, 1, op_name, params, None, (0,), tuple(range(1, 1 + len(out_dims))),
                  older_layout=older))
    g = Subgraph(0, 0, 0, 0, (0,), (1,), nodes, tensors, (Buffer(0, 0, None),), "g")
    return Model((2, 0, 0), 2, 0, None, (g,))


# a Caffe slice as Tengine 1.x wrote it between November 2019 and March 2020 (32 bytes: no isonnx, begin and end
# after ismxnet), with ismxnet left uninitialised
CAFFE_SLICE_32 = {"axis": 1, "slice_points": [2], "begins": None, "sizes": None, "iscaffe": 1, "ismxnet": 32537,
                  "begin": 608, "end": 47157504}


def test_a_32_byte_slice_block_is_the_older_struct() -> None:
    model = _model(SLICE, "Slice", CAFFE_SLICE_32, 0, (1, 5, 2, 2), [(1, 2, 2, 2), (1, 3, 2, 2)])
    data = write_tmfile(model)
    back = read_tmfile(data)
    node = back.graph.nodes[1]
    assert node.older_layout == 0 and node.param_bytes is not None and len(node.param_bytes) == 32
    assert node.params == CAFFE_SLICE_32
    assert write_tmfile(back) == data
    # today's 40-byte struct read over the same bytes would take begin for isonnx
    assert param_structs()[SLICE].size == 40


def test_an_uninitialised_flag_is_a_located_warning() -> None:
    model = read_tmfile(write_tmfile(_model(SLICE, "Slice", CAFFE_SLICE_32, 0, (1, 5, 2, 2),
                                            [(1, 2, 2, 2), (1, 3, 2, 2)])))
    result = validate_tmfile(model, current_registry())
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    (flag,) = [d for d in result.diagnostics if d.check == "tmfile_flag"]
    assert flag.severity == "warning" and flag.node_index == 1 and flag.node_name == "op"
    assert "field ismxnet holds 32537" in flag.message
    view = to_onnx(model, current_registry()).model
    attrs = {a.name: a.i for a in view.graph.node[0].attribute if a.name in ("iscaffe", "ismxnet")}
    assert attrs == {"iscaffe": 1, "ismxnet": 1}  # as Tengine reads it: nonzero is set


def test_the_caffe_slice_of_an_older_struct_runs() -> None:
    model = read_tmfile(write_tmfile(_model(SLICE, "Slice", CAFFE_SLICE_32, 0, (1, 5, 2, 2),
                                            [(1, 2, 2, 2), (1, 3, 2, 2)])))
    x = np.arange(20, dtype=np.float32).reshape(1, 5, 2, 2)
    out = run_model(to_onnx(model, current_registry()).model, {"x": x})
    np.testing.assert_array_equal(out["y0"], x[:, :2])
    np.testing.assert_array_equal(out["y1"], x[:, 2:])


def test_a_24_byte_reshape_block_is_tengine_1x_dims_struct() -> None:
    """TM2_ReshapeParam before v1.12 (later TM2_ReshapeParam_V1): four dims, -2 unused, 0 copying the dim at its
    position; a TFLite mobilenet_v2 of OAID's zoo stores one."""
    v1 = {"dim_0": 1, "dim_1": 0, "dim_2": -1, "dim_3": -2, "dim_size": 0, "axis": 0}
    model = read_tmfile(write_tmfile(_model(RESHAPE, "Reshape", v1, 0, (1, 3, 4, 2), [(1, 3, 8)])))
    node = model.graph.nodes[1]
    assert node.older_layout == 0 and node.params == v1
    result = validate_tmfile(model, current_registry())
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    assert result.facts["y0"].shape == (1, 3, 8)
    (older,) = [d for d in result.diagnostics if d.check == "tmfile_params"]
    assert older.severity == "warning" and "the struct an older writer stored" in older.message
