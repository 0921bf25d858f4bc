"""What a `.tmfile` holds, as a JSON-ready summary and as text: `opset inspect MODEL.tmfile [--json]`.

Parameters are shown by attribute name, as `opset show --domain tengine OP` names them (a layout field's
`attribute`, else its own name); a node whose op id the registry does not know is shown as `unknown(ID)` with
its parameter block's size, except Tengine's input marker (op id 12), shown as `InputOp`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from opset.formula import FormulaError
from opset.model import OpVersion
from opset.tmfile.model import DATA_TYPES, INPUT_OP_ID, LAYOUTS, TENSOR_KINDS, Model, Node, Subgraph, Tensor
from opset.tmfile.node_params import attribute_values
from opset.tmfile.params import ParamStruct
from opset.tmfile.reader import OLD_SUBGRAPH_SIZE
from opset.tmfile.text import clean_text

# the original framework (`TM2_Model.orig_format`): Tengine's MODEL_FORMAT_* values. Tengine 1.x (which wrote
# the older 36-byte subgraph struct) numbered DARKNET 7, DLA 8, NCNN 9; tengine-lite numbers DLA 7, DARKNET 8.
_FORMATS = {0: "unknown", 1: "tengine", 2: "caffe", 3: "onnx", 4: "mxnet", 5: "tensorflow", 6: "tflite"}
_FORMATS_LITE = {**_FORMATS, 7: "dla", 8: "darknet"}
_FORMATS_1X = {**_FORMATS, 7: "darknet", 8: "dla", 9: "ncnn"}


def written_by_tengine_1x(model: Model) -> bool:
    """Whether the file was written by Tengine 1.x (its subgraph struct has no sub-info offset)."""
    objects = model.raw.get("objects", {})
    where = objects.get(("sg", 0)) if isinstance(objects, dict) else None
    return where is not None and where[1] == OLD_SUBGRAPH_SIZE


def framework(model: Model) -> str:
    names = _FORMATS_1X if written_by_tengine_1x(model) else _FORMATS_LITE
    return names.get(model.orig_format, f"unknown({model.orig_format})")


def op_label(node: Node) -> str:
    """The registry's name of the node's op, `InputOp` for the container's input marker, else `unknown(ID)`."""
    if node.op_name is not None:
        return node.op_name
    return "InputOp" if node.op_id == INPUT_OP_ID else f"unknown({node.op_id})"


def _json_value(value: Any) -> Any:
    """Non-finite floats as strings, so the JSON stays strict; text with bytes that were not UTF-8 escaped."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return value


def named_params(node: Node, structs: Mapping[int, ParamStruct],
                 versions: Mapping[int, OpVersion] | None = None) -> dict[str, Any]:
    """The node's decoded parameters keyed by attribute name, in binary order; a block of an older writer's struct
    by the attributes its fields give (with `versions`, else by its own field names)."""
    ps = structs.get(node.op_id)
    if ps is None:
        return {}
    version = versions.get(node.op_id) if versions is not None else None
    if node.older_layout is not None and version is not None:
        try:
            return {k: _json_value(v) for k, v in
                    attribute_values(node.params, node.older_layout, version, as_read=False).items()}
        except FormulaError:
            pass  # fields that give no attributes: shown as stored
    if node.older_layout is not None and node.older_layout < len(ps.older):
        ps = ps.used(node.older_layout)
    names = {slot.field.name: slot.field.attribute or slot.field.name for slot in ps.slots}
    return {names.get(k, k): _json_value(v) for k, v in node.params.items()}


def tensor_info(graph: Subgraph, index: int) -> dict[str, Any]:
    if not 0 <= index < len(graph.tensors):
        return {"index": index, "error": f"no tensor {index} (the graph has {len(graph.tensors)})"}
    t: Tensor = graph.tensors[index]
    info: dict[str, Any] = {
        "index": index, "name": clean_text(t.name), "dims": list(t.dims) if t.dims is not None else None,
        "type": DATA_TYPES.get(t.data_type, f"unknown({t.data_type})"),
        "kind": TENSOR_KINDS.get(t.kind, f"unknown({t.kind})"),
    }
    if t.kind == 2:  # const: where its data is
        info["buffer"] = t.buffer
    if t.quant_params:
        info["quant"] = [{"scale": _json_value(q.scale), "zero_point": q.zero_point, "width": q.width}
                         for q in t.quant_params]
    return info


def summarize(model: Model, structs: Mapping[int, ParamStruct],
              versions: Mapping[int, OpVersion] | None = None) -> dict[str, Any]:
    """The JSON of `opset inspect --json`: counts, inputs/outputs (node indices as stored), op histogram, nodes.
    A block of an older writer's struct is shown by the attributes it gives (`versions`: the registry's tengine ops)
    with its fields as stored under `older_struct`."""
    g = model.graph
    histogram = Counter(op_label(n) for n in g.nodes)

    def io(nodes: tuple[int, ...]) -> list[dict[str, Any]]:
        out = []
        for i in nodes:
            if 0 <= i < len(g.nodes):
                tensors = [tensor_info(g, t) for t in g.nodes[i].outputs]
                out.append({"node": i, "name": clean_text(g.nodes[i].name), "tensors": tensors})
            else:
                out.append({"node": i, "error": f"no node {i} (the graph has {len(g.nodes)})"})
        return out

    return {
        "model": {
            "name": clean_text(model.name),
            "format_version": ".".join(str(v) for v in model.version),
            "framework": framework(model),
            "orig_format": model.orig_format,
            "sub_format": model.sub_format,
            "graph_layout": LAYOUTS.get(g.graph_layout, f"unknown({g.graph_layout})"),
            "model_layout": LAYOUTS.get(g.model_layout, f"unknown({g.model_layout})"),
            "subgraphs": len(model.subgraphs),
            "graph_name": clean_text(g.name),
        },
        "nodes": len(g.nodes),
        "tensors": len(g.tensors),
        "buffers": len(g.buffers),
        "buffers_with_data": sum(1 for b in g.buffers if b.data is not None),
        "inputs": list(g.inputs),
        "outputs": list(g.outputs),
        "input_nodes": io(g.inputs),
        "output_nodes": io(g.outputs),
        "op_types": dict(sorted(histogram.items(), key=lambda kv: (-kv[1], kv[0]))),
        "node_list": [
            {
                "index": n.index, "name": clean_text(n.name), "op": op_label(n), "op_id": n.op_id,
                "op_version": n.op_version,
                "params": named_params(n, structs, versions),
                **({"older_struct": {k: _json_value(v) for k, v in n.params.items()}}
                   if n.older_layout is not None else {}),
                "param_bytes": None if n.param_bytes is None else len(n.param_bytes),
                "inputs": [tensor_info(g, t) for t in n.inputs],
                "outputs": [tensor_info(g, t) for t in n.outputs],
                **({"attrs": {clean_text(a.name): clean_text(a.value) for a in n.attrs}} if n.attrs else {}),
            }
            for n in g.nodes
        ],
    }


def _tensor_text(t: Mapping[str, Any]) -> str:
    if "error" in t:
        return f"<{t['error']}>"
    dims = "?" if t["dims"] is None else "[" + ", ".join(str(d) for d in t["dims"]) + "]"
    kind = "" if t["kind"] == "var" else f" {t['kind']}"
    return f"{t['name'] or '#' + str(t['index'])} {dims} {t['type']}{kind}"


def render_text(s: Mapping[str, Any]) -> str:
    """The summary as plain text, one node a paragraph."""
    m = s["model"]
    lines = [
        f"model:        {m['name'] or '-'}",
        f"format:       TM2 {m['format_version']}",
        f"framework:    {m['framework']} (orig_format {m['orig_format']})",
        f"layout:       graph {m['graph_layout']}, model {m['model_layout']}",
        f"counts:       {s['nodes']} nodes, {s['tensors']} tensors, {s['buffers']} buffers "
        f"({s['buffers_with_data']} with data)",
    ]
    for label, key in (("inputs", "input_nodes"), ("outputs", "output_nodes")):
        for entry in s[key]:
            if "error" in entry:
                lines.append(f"{label + ':':14}node {entry['node']}: {entry['error']}")
                continue
            tensors = ", ".join(_tensor_text(t) for t in entry["tensors"])
            lines.append(f"{label + ':':14}node {entry['node']} {entry['name'] or ''}: {tensors}")
    lines.append("op types:     " + ", ".join(f"{op} {count}" for op, count in s["op_types"].items()))
    lines.append("nodes:")
    for n in s["node_list"]:
        lines.append(f"  {n['index']:>4} {n['op']} {n['name'] or ''}".rstrip())
        if "older_struct" in n:
            stored = " ".join(f"{k}={v}" for k, v in n["older_struct"].items())
            lines.append(f"         (an older writer's struct: {stored})")
        if n["params"]:
            lines.append("         " + " ".join(f"{k}={v}" for k, v in n["params"].items()))
        elif n["param_bytes"] and n["op"].startswith("unknown"):
            lines.append(f"         ({n['param_bytes']}-byte parameter block, op id not in the registry)")
        if n["inputs"]:
            lines.append("         in:  " + ", ".join(_tensor_text(t) for t in n["inputs"]))
        if n["outputs"]:
            lines.append("         out: " + ", ".join(_tensor_text(t) for t in n["outputs"]))
    return "\n".join(lines)
