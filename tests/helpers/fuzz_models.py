"""Damaged models for the fuzz suite and the verdict comparison with onnx's checker: the small light models shipped
with onnx, edited field by field so the protobuf stays readable and the damage reaches a validator (op types and
domains, also bytes that are not UTF-8; opset imports; attribute types and values; dims of 0, negative and 2^40;
data types; raw_data sizes; dangling names; cycles; nodes wrapped in If/Loop subgraphs). `edited()` draws the bytes
of one such model (tests/fuzz/test_validate_protobuf.py, tests/validate/test_onnx_verdicts.py)."""

from __future__ import annotations

import os
from pathlib import Path

import onnx
from hypothesis import strategies as st
from onnx import helper

LIGHT_DIR = Path(os.path.dirname(onnx.__file__)) / "backend" / "test" / "data" / "light"
SMALL = ["light_bvlc_alexnet.onnx", "light_zfnet512.onnx", "light_squeezenet.onnx", "light_vgg19.onnx",
         "light_inception_v1.onnx"]
MODELS = {name: onnx.load(str(LIGHT_DIR / name)) for name in SMALL if (LIGHT_DIR / name).exists()}

OP_TYPES = ["Conv", "Relu", "Add", "MatMul", "Reshape", "Concat", "If", "Loop", "Scan", "Constant", "Gemm",
            "MaxPool", "Split", "Cast", "Gather", "Slice", "Resize", "Unsqueeze", "TopK", "", "Foo", "conv",
            "Convolution", "FusedConv", "Relu6", "TreeEnsembleClassifier", "Ĉonv", "Re lu", "\x00"]
DOMAINS = ["", "ai.onnx", "ai.onnx.ml", "com.microsoft", "com.microsoft.nchwc", "ai.onnx.modified", "tengine",
           "ai.onnx.preview.training", "bogus.domain", " ", "ai.onnx\x00"]
BIG_INTS = [0, 1, -1, 2, 7, 13, 2**31 - 1, -2**31, 2**40, -2**40, 2**62, -2**63, 2**63 - 1]
DIMS = [0, 1, 3, -1, -7, 2**40, 2**62, -2**62]
FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=32), st.sampled_from([0.0, -0.0, 1e38]))
MARK = "\u2603MARK"  # swapped for bytes that are not UTF-8 after serializing (protobuf refuses to write them)


def _names(model: onnx.ModelProto) -> list[str]:
    g = model.graph
    names = [n for node in g.node for n in [*node.input, *node.output] if n]
    return names + [i.name for i in g.input] + [t.name for t in g.initializer] or ["x"]


def _pick(draw: st.DrawFn, seq: list, label: str):  # type: ignore[no-untyped-def, type-arg]
    return seq[draw(st.integers(0, len(seq) - 1), label=label)]


def _edit_node(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    g = model.graph
    if not g.node:
        return
    node = _pick(draw, list(g.node), "node")
    kind = draw(st.sampled_from(["op_type", "domain", "input", "output", "drop_input", "name", "utf8"]))
    if kind == "op_type":
        node.op_type = draw(st.one_of(st.sampled_from(OP_TYPES), st.text(max_size=12)))
    elif kind == "domain":
        node.domain = draw(st.one_of(st.sampled_from(DOMAINS), st.text(max_size=12)))
    elif kind == "input" and node.input:
        k = draw(st.integers(0, len(node.input) - 1))
        node.input[k] = draw(st.one_of(st.sampled_from(_names(model)), st.sampled_from(["", "dangling", "?"])))
    elif kind == "output" and node.output:
        k = draw(st.integers(0, len(node.output) - 1))
        node.output[k] = draw(st.one_of(st.sampled_from(_names(model)), st.sampled_from(["", "dup", "fresh"])))
    elif kind == "drop_input" and node.input:
        del node.input[draw(st.integers(0, len(node.input) - 1))]
    elif kind == "name":
        node.name = draw(st.text(max_size=20))
    else:
        node.op_type = MARK


def _edit_attribute(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    nodes = list(model.graph.node)
    if not nodes:
        return
    node = _pick(draw, nodes, "node")
    if not node.attribute or draw(st.booleans(), label="new attribute"):
        attr = node.attribute.add()
        attr.name = draw(st.sampled_from(["kernel_shape", "pads", "strides", "axis", "to", "value", "then_branch",
                                          "body", "perm", "mode", "alpha", "bogus", ""]))
    else:
        attr = _pick(draw, list(node.attribute), "attribute")
    attr.type = draw(st.sampled_from(list(onnx.AttributeProto.AttributeType.values())), label="type")
    what = draw(st.sampled_from(["i", "ints", "f", "floats", "s", "strings", "t", "g", "clear"]))
    if what == "i":
        attr.i = draw(st.sampled_from(BIG_INTS))
    elif what == "ints":
        del attr.ints[:]
        attr.ints.extend(draw(st.lists(st.sampled_from(BIG_INTS), max_size=8)))
    elif what == "f":
        attr.f = draw(FLOATS)
    elif what == "floats":
        del attr.floats[:]
        attr.floats.extend(draw(st.lists(FLOATS, max_size=6)))
    elif what == "s":
        attr.s = draw(st.binary(max_size=12))
    elif what == "strings":
        del attr.strings[:]
        attr.strings.extend(draw(st.lists(st.binary(max_size=6), max_size=4)))
    elif what == "t":
        attr.t.CopyFrom(_tensor(draw))
    elif what == "g":
        attr.g.CopyFrom(_small_graph(draw, depth=1))
    else:
        attr.ClearField("type")


def _tensor(draw: st.DrawFn) -> onnx.TensorProto:
    t = onnx.TensorProto(name="t")
    t.dims.extend(draw(st.lists(st.sampled_from(DIMS), max_size=3)))
    t.data_type = draw(st.integers(0, 30))
    if draw(st.booleans()):
        t.raw_data = draw(st.binary(max_size=32))
    else:
        t.int64_data.extend(draw(st.lists(st.sampled_from(BIG_INTS), max_size=6)))
    return t


def _edit_tensor(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    inits = list(model.graph.initializer)
    if not inits:
        return
    t = _pick(draw, inits, "initializer")
    kind = draw(st.sampled_from(["dims", "raw_size", "data_type", "name", "typed"]))
    if kind == "dims":
        if t.dims and draw(st.booleans()):
            t.dims[draw(st.integers(0, len(t.dims) - 1))] = draw(st.sampled_from(DIMS))
        else:
            t.dims.append(draw(st.sampled_from(DIMS)))
    elif kind == "raw_size":
        raw = t.raw_data
        t.raw_data = raw[:draw(st.integers(0, len(raw)))] if draw(st.booleans()) else raw + draw(st.binary(
            min_size=1, max_size=64))
    elif kind == "data_type":
        t.data_type = draw(st.integers(0, 40))
    elif kind == "name":
        t.name = draw(st.sampled_from([*_names(model), "orphan"]))
    else:
        t.ClearField("raw_data")
        t.float_data.extend(draw(st.lists(FLOATS, max_size=5)))


def _edit_imports(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    kind = draw(st.sampled_from(["version", "domain", "add", "clear", "ir"]))
    if kind == "version" and model.opset_import:
        model.opset_import[0].version = draw(st.sampled_from(BIG_INTS))
    elif kind == "domain" and model.opset_import:
        model.opset_import[0].domain = draw(st.sampled_from(DOMAINS))
    elif kind == "add":
        model.opset_import.append(helper.make_opsetid(draw(st.sampled_from(DOMAINS)), draw(st.sampled_from(BIG_INTS))))
    elif kind == "clear":
        del model.opset_import[:]
    else:
        model.ir_version = draw(st.sampled_from([1, 3, 7, 10, 11, 2**40]))


def _edit_value_info(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    vis = [*model.graph.input, *model.graph.output]
    if not vis:
        return
    vi = _pick(draw, vis, "value_info")
    tt = vi.type.tensor_type
    kind = draw(st.sampled_from(["elem", "dim_value", "dim_param", "rank", "clear"]))
    if kind == "elem":
        tt.elem_type = draw(st.integers(0, 40))
    elif kind == "dim_value":
        tt.shape.dim.add().dim_value = draw(st.sampled_from(DIMS))
    elif kind == "dim_param":
        tt.shape.dim.add().dim_param = draw(st.text(max_size=8))
    elif kind == "rank":
        del tt.shape.dim[:]
    else:
        vi.ClearField("type")


def _edit_graph(draw: st.DrawFn, model: onnx.ModelProto) -> None:
    g = model.graph
    nodes = list(g.node)
    kind = draw(st.sampled_from(["cycle", "swap", "delete", "duplicate", "wrap_if", "wrap_loop", "reverse"]))
    if not nodes:
        return
    if kind == "cycle" and nodes[0].input:
        nodes[0].input[0] = nodes[-1].output[0] if nodes[-1].output else "loop"
    elif kind == "swap" and len(nodes) > 1:
        i, j = draw(st.integers(0, len(nodes) - 1)), draw(st.integers(0, len(nodes) - 1))
        a, b = onnx.NodeProto(), onnx.NodeProto()
        a.CopyFrom(nodes[i])
        b.CopyFrom(nodes[j])
        g.node[i].CopyFrom(b)
        g.node[j].CopyFrom(a)
    elif kind == "delete":
        del g.node[draw(st.integers(0, len(nodes) - 1))]
    elif kind == "duplicate":
        g.node.append(nodes[draw(st.integers(0, len(nodes) - 1))])
    elif kind == "reverse":
        kept = list(reversed(nodes))
        del g.node[:]
        g.node.extend(kept)
    else:
        k = draw(st.integers(0, len(nodes) - 1))
        for _ in range(draw(st.integers(1, 3), label="depth")):
            g.node[k].CopyFrom(_wrapped(g.node[k], loop=kind == "wrap_loop", draw=draw))


def _wrapped(node: onnx.NodeProto, *, loop: bool, draw: st.DrawFn) -> onnx.NodeProto:
    """`node` moved into an If's branches (or a Loop's body), the wrapper giving its outputs."""
    inner = onnx.NodeProto()
    inner.CopyFrom(node)
    outputs = [helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, None) for o in node.output]
    if loop:
        body = helper.make_graph([inner], "body", [helper.make_tensor_value_info("i", onnx.TensorProto.INT64, []),
                                                   helper.make_tensor_value_info("c", onnx.TensorProto.BOOL, [])],
                                 [helper.make_tensor_value_info("c", onnx.TensorProto.BOOL, []), *outputs])
        return helper.make_node("Loop", ["", draw(st.sampled_from(["", "cond"]))], list(node.output),
                                body=body)
    branch = helper.make_graph([inner], "branch", [], outputs)
    return helper.make_node("If", [draw(st.sampled_from(["cond", *node.input[:1]]))], list(node.output),
                            then_branch=branch, else_branch=branch)


def _small_graph(draw: st.DrawFn, depth: int) -> onnx.GraphProto:
    x = helper.make_tensor_value_info("gx", onnx.TensorProto.FLOAT, [draw(st.sampled_from(DIMS))])
    y = helper.make_tensor_value_info("gy", onnx.TensorProto.FLOAT, None)
    node = helper.make_node(draw(st.sampled_from(OP_TYPES)), ["gx"], ["gy"])
    return helper.make_graph([node], "g", [x], [y])


EDITS = [_edit_node, _edit_attribute, _edit_tensor, _edit_imports, _edit_value_info, _edit_graph]


@st.composite
def edited(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(sorted(MODELS)), label="model")
    model = onnx.ModelProto()
    model.CopyFrom(MODELS[name])
    for _ in range(draw(st.integers(1, 4), label="edits")):
        draw(st.sampled_from(EDITS), label="edit")(draw, model)
    data = model.SerializeToString()
    if MARK.encode() in data:  # same length, so every enclosing length prefix stays right
        bad = draw(st.binary(min_size=len(MARK.encode()), max_size=len(MARK.encode())).filter(_not_utf8))
        data = data.replace(MARK.encode(), bad)
    return data


def _not_utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False
