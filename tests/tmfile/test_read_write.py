"""Reading every shared `.tmfile`, writing it back byte for byte, and writing models built by hand."""

from __future__ import annotations

import dataclasses
import struct
from pathlib import Path

import pytest

from opset.tmfile import Model, TmfileError, read_tmfile, write_tmfile
from opset.tmfile.model import INPUT_OP_ID, Buffer, Node, QuantParam, Subgraph, Tensor
from opset.tmfile.params import param_structs
from opset.tmfile.writer import write_model
from tests.helpers.tmfile import SHARED, SHARED_IDS, tmfile_dir


def test_the_shared_models_are_there() -> None:
    """Skips, naming the folder, where the shared models are not there (the data-driven tests below then collect
    nothing); fails where the folder is there without them."""
    if not tmfile_dir().is_dir():
        pytest.skip(f"{tmfile_dir()} is not there (set OPSET_TMFILE_DIR to the shared .tmfile folder)")
    assert len(SHARED) >= 7, f"expected the shared .tmfile models in {tmfile_dir()}"


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_every_shared_file_reads_with_references_in_range(path: Path) -> None:
    m = read_tmfile(path)
    g = m.graph
    assert m.version[0] == 2 and g.nodes and g.tensors
    for n in g.nodes:
        assert all(0 <= t < len(g.tensors) for t in (*n.inputs, *n.outputs)), n
        assert n.op_name is not None or n.op_id == INPUT_OP_ID  # the input marker is the one op the registry lacks
    for t in g.tensors:
        if t.kind == 2:  # const
            assert 0 <= t.buffer < len(g.buffers)
    assert all(0 <= i < len(g.nodes) for i in (*g.inputs, *g.outputs))


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_write_of_read_is_the_file_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    assert write_tmfile(read_tmfile(data)) == data


def _fresh(m: Model) -> bytes:
    """Lay the model out afresh (forget where its objects were), keeping only the header's padding bytes."""
    return write_model(dataclasses.replace(m, raw={"header_pad": m.raw.get("header_pad", 0)}), param_structs())


@pytest.mark.parametrize("path", SHARED, ids=SHARED_IDS)
def test_a_fresh_layout_reads_back_as_the_same_model(path: Path) -> None:
    m = read_tmfile(path)
    again = read_tmfile(_fresh(m))
    assert again == m
    assert write_tmfile(again) == _fresh(m)


def test_the_fresh_layout_is_tengines_own(mnist_bytes: bytes) -> None:
    """mnist was written by today's Tengine writer with zero padding: laid out afresh, it is the same bytes, so
    the writer's object order and alignment are Tengine's."""
    assert _fresh(read_tmfile(mnist_bytes)) == mnist_bytes


def test_an_edited_parameter_is_written_in_place(mnist_bytes: bytes) -> None:
    m = read_tmfile(mnist_bytes)
    g = m.graph
    conv = next(n for n in g.nodes if n.op_name == "Convolution")
    edited = dataclasses.replace(conv, params={**conv.params, "stride_h": 7})
    nodes = tuple(edited if n.index == conv.index else n for n in g.nodes)
    m2 = dataclasses.replace(m, subgraphs=(dataclasses.replace(g, nodes=nodes),))
    out = write_tmfile(m2)
    changed = [i for i, (a, b) in enumerate(zip(out, mnist_bytes, strict=True)) if a != b]
    assert len(changed) == 1  # one byte of stride_h (1 -> 7)
    assert read_tmfile(out).graph.nodes[conv.index].params["stride_h"] == 7


def test_a_resized_object_relays_the_file_out(mnist_bytes: bytes) -> None:
    m = read_tmfile(mnist_bytes)
    g = m.graph
    renamed = dataclasses.replace(g.nodes[12], name="a much longer name than Conv_0")
    nodes = tuple(renamed if n.index == 12 else n for n in g.nodes)
    m2 = dataclasses.replace(m, name="mnist", subgraphs=(dataclasses.replace(g, nodes=nodes),))
    back = read_tmfile(write_tmfile(m2))
    assert back == m2
    assert back.graph.nodes[12].name == "a much longer name than Conv_0" and back.name == "mnist"


def _hand_built() -> Model:
    weight = struct.pack("<4f", 1.0, 0.0, 0.0, 1.0)
    tensors = (
        Tensor(0, "x", 0, (1, 1, 3, 3), 0, 3, 0),
        Tensor(1, "w", 0, (1, 1, 2, 2), 0, 2, 0),
        Tensor(2, "conv", 0, (1, 1, 2, 2), 0, 1, 0),
        Tensor(3, "y", 0, (1, 1, 2, 2), 0, 1, 0),
    )
    nodes = (
        Node(0, "w", 4, 1, "Const", {}, None, (), (1,)),
        Node(1, "conv", 5, 1, "Convolution", {"kernel_h": 2, "kernel_w": 2, "output_channel": 1}, None, (0, 1), (2,)),
        Node(2, "relu", 20, 1, "ReLU", {"negative_slope": 0.0}, None, (2,), (3,)),
    )
    g = Subgraph(0, 0, 0, 0, (1,), (2,), nodes, tensors, (Buffer(0, len(weight), weight),), None)
    return Model((2, 0, 0), 3, 0, "hand-built", (g,))


def test_a_hand_built_model_writes_a_file_that_reads_back() -> None:
    m = _hand_built()
    data = write_tmfile(m)
    back = read_tmfile(data)
    conv = back.graph.nodes[1]
    # fields the node left out get the layout's defaults (Tengine's initial values)
    structs = param_structs()
    expected = {slot.field.name: slot.field.default for slot in structs[5].slots} | m.graph.nodes[1].params
    assert conv.params == expected and conv.params["stride_h"] == 1 and conv.params["activation"] == -1
    filled = dataclasses.replace(m.graph.nodes[1], params=expected, param_bytes=conv.param_bytes)
    relu = dataclasses.replace(m.graph.nodes[2], param_bytes=back.graph.nodes[2].param_bytes)
    want = dataclasses.replace(m.graph, nodes=(m.graph.nodes[0], filled, relu))
    assert back == dataclasses.replace(m, subgraphs=(want,))
    assert write_tmfile(back) == data  # and it is a fixed point


def test_a_value_that_does_not_fit_its_field_is_a_tmfile_error() -> None:
    m = _hand_built()
    g = m.graph
    bad = dataclasses.replace(g.nodes[1], params={**g.nodes[1].params, "kernel_h": 1 << 40})
    m2 = dataclasses.replace(m, subgraphs=(dataclasses.replace(g, nodes=(g.nodes[0], bad, g.nodes[2])),))
    with pytest.raises(TmfileError, match=r"node 1 .*kernel_h"):
        write_tmfile(m2)


def test_an_older_shorter_parameter_block_keeps_its_length(mnist_bytes: bytes) -> None:
    m = read_tmfile(mnist_bytes)
    g = m.graph
    conv = g.nodes[12]
    short = dict(conv.params)
    del short["pad_w1"]
    assert conv.param_bytes is not None
    node = dataclasses.replace(conv, params=short, param_bytes=conv.param_bytes[:-4])
    m2 = dataclasses.replace(m, subgraphs=(dataclasses.replace(g, nodes=(*g.nodes[:12], node, *g.nodes[13:])),))
    back = read_tmfile(write_tmfile(m2)).graph.nodes[12]
    assert back.params == short and back.param_bytes == conv.param_bytes[:-4]


def _with_operator_type(data: bytes, node: int, op_id: int) -> bytes:
    """mnist with node `node`'s operator type replaced (offsets found by the independent walk's rules)."""
    root = struct.unpack_from("<I", data, 8)[0]
    vo_subgraphs = struct.unpack_from("<I", data, root + 8)[0]
    subgraph = struct.unpack_from("<I", data, vo_subgraphs + 4)[0]
    vo_nodes = struct.unpack_from("<I", data, subgraph + 20)[0]
    node_at = struct.unpack_from("<I", data, vo_nodes + 4 + 4 * node)[0]
    operator = struct.unpack_from("<I", data, node_at + 12)[0]
    out = bytearray(data)
    struct.pack_into("<I", out, operator + 4, op_id)
    return bytes(out)


def test_an_unknown_op_id_reads_and_keeps_its_block(mnist_bytes: bytes) -> None:
    data = _with_operator_type(mnist_bytes, 12, 200)  # the first Convolution becomes op 200
    node = read_tmfile(data).graph.nodes[12]
    assert node.op_id == 200 and node.op_name is None and node.params == {}
    assert node.param_bytes is not None and len(node.param_bytes) == 56  # up to its operator, as Tengine writes
    assert write_tmfile(read_tmfile(data)) == data


def test_sub_and_compile_versions_read_other_main_versions_do_not(mnist_bytes: bytes) -> None:
    newer = bytearray(mnist_bytes)
    struct.pack_into("<HH", newer, 2, 3, 9)
    m = read_tmfile(bytes(newer))
    assert m.version == (2, 3, 9)
    assert write_tmfile(m) == bytes(newer)
    older = bytearray(mnist_bytes)
    struct.pack_into("<H", older, 0, 1)
    with pytest.raises(TmfileError, match=r"format version 1\.0\.0 is not supported"):
        read_tmfile(bytes(older))


def test_the_header_padding_survives_a_fresh_layout(mnist_bytes: bytes) -> None:
    m = read_tmfile(mnist_bytes)
    assert m.raw["header_pad"] == struct.unpack_from("<H", mnist_bytes, 6)[0] != 0
    assert _fresh(m)[6:8] == mnist_bytes[6:8]


def test_a_block_longer_than_the_layout_is_kept_whole(mnist_bytes: bytes) -> None:
    m = read_tmfile(mnist_bytes)
    g = m.graph
    fc = g.nodes[19]
    assert fc.op_name == "FullyConnected" and fc.param_bytes is not None and len(fc.param_bytes) == 4
    longer = dataclasses.replace(fc, param_bytes=fc.param_bytes + b"\x07\x00\x00\x00")  # a newer field
    m2 = dataclasses.replace(m, subgraphs=(dataclasses.replace(g, nodes=(*g.nodes[:19], longer)),))
    back = read_tmfile(write_tmfile(m2)).graph.nodes[19]
    assert back.param_bytes == fc.param_bytes + b"\x07\x00\x00\x00" and back.params == fc.params


def test_a_uint8_quantised_deconvolution_round_trips_with_its_quantisation() -> None:
    """The shape of a uint8 model: per-tensor and per-channel quantisation parameters, a Deconvolution (scales
    that float32 holds exactly, as the file stores them)."""
    weight = bytes(range(2 * 1 * 3 * 3))
    per_channel = (QuantParam(128, 0.5, 8), QuantParam(120, 0.25, 8))
    tensors = (
        Tensor(0, "x", 0, (1, 1, 4, 4), 0, 3, 3, (QuantParam(128, 0.125, 8),)),
        Tensor(1, "w", 0, (2, 1, 3, 3), 0, 2, 3, per_channel),
        Tensor(2, "y", 0, (1, 2, 8, 8), 0, 1, 3, (QuantParam(0, 0.0625, 8),)),
    )
    deconv = {"kernel_h": 3, "kernel_w": 3, "stride_h": 2, "stride_w": 2, "num_output": 2}
    nodes = (
        Node(0, "x", INPUT_OP_ID, 1, None, {}, None, (), (0,)),
        Node(1, "w", 4, 1, "Const", {}, None, (), (1,)),
        Node(2, "up", 6, 1, "Deconvolution", deconv, None, (0, 1), (2,)),
    )
    g = Subgraph(0, 0, 0, 0, (0,), (2,), nodes, tensors, (Buffer(0, len(weight), weight),), None)
    back = read_tmfile(write_tmfile(Model((2, 0, 0), 3, 0, None, (g,))))
    assert back.graph.tensors == tensors
    up = back.graph.nodes[2]
    assert up.op_name == "Deconvolution" and {k: up.params[k] for k in deconv} == deconv
    assert back.graph.buffers[0].data == weight
