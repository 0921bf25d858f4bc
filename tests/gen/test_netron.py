"""`gen netron` against the metadata netron ships: every Tengine op there is ours or a listed gap.

For an op both files have, every difference between netron's entry and ours must be listed in
OUR_FIXES with the reason ours is right; an unlisted difference is a bug in ours (or a fix that
needs its reason written down), and a listed one that no longer occurs is stale. Keys netron's
file leaves out (`description`, `op_id`, `outputs` when it lists none) are additions, not
differences.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gen.netron.generator import main, metadata
from opset.load import load_registry

netron = pytest.importorskip("netron")
NETRON_TENGINE = Path(netron.__file__).parent / "tengine-metadata.json"
NETRON_READER = Path(netron.__file__).parent / "tengine.js"
TENGINE_LITE_OP_VER = 1  # TM2_OP_VER: the op version tengine-lite writes into every node

# names in netron's file that are not operators
NOT_AN_OP = {"Num": "the count of op types in tengine-lite's enum (TM2_OPTYPE_NUM), not an op"}
# entries only netron has: no Tengine op of that name exists
NETRON_ONLY = {
    "PackModel": "netron's reader registers it as op 102; tengine-lite has no such op and uses 102 for Softplus",
}
# Tengine ops netron describes that the registry has no YAML for yet (remove a name when its YAML lands)
NOT_YET_IN_REGISTRY: dict[str, str] = {}
# netron's spelling -> the registry's, for the same op
NAME_MAP = {"Relu1": "ReLU1"}  # tm2_format.h's TM2_OPSTR_RELU1 and netron's own reader say "ReLU1" (ReLU1.yaml)
# ops with several entries in netron's file: the version whose parameters are the struct the registry's layout follows
NETRON_VERSION = {
    # netron keeps three Reshape entries: (1) is_mxnet, reverse, shape; (2) dim_0..dim_3, dim_size, axis, which
    # replaces (1) in netron's name:version map, both being version 0, and is what its reader parses for every
    # tengine-lite file (op version 1 falls back to 0): seed 003's older table; (3) version 2, the same fields
    # as (1): TM2_ReshapeParam as real files carry it (is_onnx aside), the one to compare with (Reshape.yaml)
    "Reshape": 2,
}

# Reasons many rows share; the op's YAML (seed_note, field docs) gives the particulars.
INIT = "Tengine's initial value for the field (its init_op; seed_note); netron's value has no source in Tengine"
SEED = "seed 003's default, which the registry takes (seed_note or field doc)"
CHOICE = "Tengine sets no usable initial value; the registry's documented choice (seed_note)"
REQUIRED = "required: no valid initial value (seed_note), so no default; netron's would hide a missing value"
REAL_FIELD = "a field of the real struct in tm2_format.h that netron's entry lacks (seed_note or field doc)"
C_BOOL = "a C bool (tm_bool_t) is uint8_t in tm2_format.h: one byte holding 0 or 1"
SEED_CATEGORY = "seed 003's category table, which the registry follows"
SEED_NO_CATEGORY = "seed 003's table gives '/' (no category)"
DISPLAY_HINT = "a display hint, not part of the op: netron already hides a parameter equal to its default"
NO_BIAS = "a node without bias (two inputs) is valid in Tengine; netron marks the bias required"
BEGIN_TYPO = "tm2_format.h's name; begine_* is seed 003's misspelling (seed_note)"

# Every difference between netron's entry and ours, one row each, grouped by op: (op, difference, why ours is right)
OUR_FIXES: tuple[tuple[str, str, str], ...] = (
    ("ArgMax", "attribute keepdims: not in netron", REAL_FIELD),

    ("ArgMin", "attribute keepdims: not in netron", REAL_FIELD),

    ("BatchToSpaceND", "attribute dilation_x: default 0 (netron) vs 1 (ours)", CHOICE),
    ("BatchToSpaceND", "attribute dilation_y: default 0 (netron) vs 1 (ours)", CHOICE),

    ("BilinearResize", "attribute scale_x: default 0 (netron) vs 1.0 (ours)", INIT),
    ("BilinearResize", "attribute scale_y: default 0 (netron) vs 1.0 (ours)", INIT),

    ("Clip", "attribute max: default 0 (netron) vs 3.4028234663852886e+38 (ours)", INIT),
    ("Clip", "attribute min: default 0 (netron) vs -3.4028234663852886e+38 (ours)", INIT),

    ("Const", "category: 'Constant' (netron) vs None (ours)", SEED_NO_CATEGORY),

    ("Convolution", "attribute dilation_h: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute dilation_w: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute input_channel: default 1 (netron) vs 64 (ours)", INIT),
    ("Convolution", "attribute output_channel: default 1 (netron) vs 64 (ours)", INIT),
    ("Convolution", "attribute group: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute pad_h0: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute pad_w0: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute pad_h1: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "attribute pad_w1: visible false (netron) vs absent (ours)", DISPLAY_HINT),
    ("Convolution", "input bias: option None (netron) vs optional (ours)", NO_BIAS),

    ("Crop", 'attribute center_crop: type "bool" (netron) vs "uint8" (ours)', C_BOOL),
    ("Crop", "attribute axis: default 0 (netron) vs 1 (ours)", SEED),

    ("Deconvolution", "attribute output_pad_h0: not in netron", REAL_FIELD),
    ("Deconvolution", "attribute output_pad_w0: not in netron", REAL_FIELD),
    ("Deconvolution", "input bias: option None (netron) vs optional (ours)", NO_BIAS),

    ("DepthToSpace", "attribute block_size: default 0 (netron) vs 1 (ours)", INIT),

    ("DetectionOutput", "attribute num_classes: default 0 (netron) vs 21 (ours)", INIT),
    ("DetectionOutput", "attribute keep_top_k: default 0 (netron) vs 100 (ours)", INIT),
    ("DetectionOutput", "attribute nms_top_k: default 0 (netron) vs 100 (ours)", INIT),
    ("DetectionOutput", "attribute confidence_threshold: default 0 (netron) vs 0.25 (ours)", INIT),
    ("DetectionOutput", "attribute nms_threshold: default 0 (netron) vs 0.45 (ours)", INIT),

    ("ELU", "attribute alpha: default 0 (netron) vs 1.0 (ours)", SEED),

    ("Eltwise", "attribute shift: not in netron", REAL_FIELD),
    ("Eltwise", "attribute power: not in netron", REAL_FIELD),
    ("Eltwise", "attribute scale: not in netron", REAL_FIELD),
    ("Eltwise", "inputs: ['inputs'] (netron) vs ['A', 'B'] (ours)",
     "at most two inputs, B optional for the unary types; one variadic list hides that"),

    ("Expand", "attribute v_shape[]: named ex_shape in ours",
     "offset_ex_shape in tm2_format.h (seed 003: offset_v_shape)"),
    ("Expand", "attribute dim_num: not in netron", REAL_FIELD),

    ("Flatten", "attribute axis: default 0 (netron) vs 1 (ours)", INIT),
    ("Flatten", "attribute end_axis: default 0 (netron) vs 3 (ours)", INIT),

    ("FullyConnected", "attribute num_output: default 10 (netron) vs 1 (ours)", INIT),
    ("FullyConnected", "input bias: option None (netron) vs optional (ours)", NO_BIAS),

    ("GRU", "attribute output_len: default 0 (netron) vs 1 (ours)", INIT),
    ("GRU", "attribute sequence_len: default 0 (netron) vs 1 (ours)", INIT),
    ("GRU", "attribute input_size: default 0 (netron) vs 1 (ours)", INIT),
    ("GRU", "attribute hidden_size: default 0 (netron) vs 1 (ours)", INIT),

    ("Gather", "category: 'Transform' (netron) vs 'Data' (ours)", SEED_CATEGORY),
    ("Gather", "attribute is_onnx: not in netron", REAL_FIELD),

    ("Gemm", "attribute alpha: default 0 (netron) vs 1.0 (ours)", CHOICE),
    ("Gemm", "attribute beta: default 0 (netron) vs 1.0 (ours)", CHOICE),

    ("HardSwish", "attribute alpha: default 0 (netron) vs 1.0 (ours)", SEED),
    ("HardSwish", "attribute beta: default 0 (netron) vs 3.0 (ours)", SEED),

    ("Interp", "attribute resize_type: default 0 (netron) vs 1 (ours)", INIT),
    ("Interp", "attribute width_scale: default 0 (netron) vs 1.0 (ours)", INIT),
    ("Interp", "attribute height_scale: default 0 (netron) vs 1.0 (ours)", INIT),

    ("L2Pool", "attribute paddingType: not in netron", REAL_FIELD),
    ("L2Pool", "attribute kernel_h: not in netron", REAL_FIELD),
    ("L2Pool", "attribute kernel_w: not in netron", REAL_FIELD),
    ("L2Pool", "attribute stride_h: not in netron", REAL_FIELD),
    ("L2Pool", "attribute stride_w: not in netron", REAL_FIELD),

    ("LRN", "attribute bias: not in netron", REAL_FIELD),
    ("LRN", "attribute is_onnx: not in netron", REAL_FIELD),
    ("LRN", "attribute local_size: default 0 (netron) vs 5 (ours)", INIT),
    ("LRN", "attribute alpha: default 0 (netron) vs 1e-05 (ours)", SEED),
    ("LRN", "attribute beta: default 0 (netron) vs 0.75 (ours)", SEED),
    ("LRN", "attribute k: default 0 (netron) vs 2.0 (ours)", SEED),

    ("LSTM", "attribute output_len: default 0 (netron) vs 1 (ours)", INIT),
    ("LSTM", "attribute sequence_len: default 0 (netron) vs 1 (ours)", INIT),
    ("LSTM", "attribute input_size: default 0 (netron) vs 1 (ours)", INIT),
    ("LSTM", "attribute hidden_size: default 0 (netron) vs 1 (ours)", INIT),
    ("LSTM", "attribute cell_size: default 0 (netron) vs 1 (ours)", INIT),

    ("LogSoftmax", "attribute axis: not in netron", REAL_FIELD),

    ("Logical", 'attribute type: type "int32" (netron) vs "uint32" (ours)',
     "tm2_format.h declares TM2_LogicalParam.type as uint32_t"),

    ("MVN", "attribute normalize_variance: default 0 (netron) vs 1 (ours)", CHOICE),
    ("MVN", "attribute eps: default 0 (netron) vs 1e-09 (ours)", CHOICE),

    ("Pad", "category: 'Tensor' (netron) vs 'Layer' (ours)", SEED_CATEGORY),
    ("Pad", "attribute pad_n_0: default -1 (netron) vs 0 (ours)", SEED),
    ("Pad", "attribute pad_n_1: default -1 (netron) vs 0 (ours)", SEED),
    ("Pad", "attribute pad_c_0: default -1 (netron) vs 0 (ours)", SEED),
    ("Pad", "attribute pad_c_1: default -1 (netron) vs 0 (ours)", SEED),
    ("Pad", "inputs: ['input', 'paddings'] (netron) vs ['input'] (ours)",
     "Tengine reads the pads from the parameters, and input 0 only (pad.c, pad_ref.c)"),

    ("Permute", "attribute order1: default 0 (netron) vs 1 (ours)", INIT),
    ("Permute", "attribute order2: default 0 (netron) vs 2 (ours)", INIT),
    ("Permute", "attribute order3: default 0 (netron) vs 3 (ours)", INIT),

    ("Pooling", 'attribute alg: type "int32" (netron) vs "uint32" (ours)',
     "tm2_format.h declares TM2_PoolParam.alg as uint32_t"),
    ("Pooling", "attribute kernel_h: default 0 (netron) vs 2 (ours)", INIT),
    ("Pooling", "attribute kernel_w: default 0 (netron) vs 2 (ours)", INIT),
    ("Pooling", "attribute stride_h: default 0 (netron) vs 2 (ours)", INIT),
    ("Pooling", "attribute stride_w: default 0 (netron) vs 2 (ours)", INIT),

    ("PriorBox", "attribute min_size: default [] (netron) vs absent (ours)", REQUIRED),
    ("PriorBox", "attribute variance: default [] (netron) vs absent (ours)", REQUIRED),
    ("PriorBox", "attribute offset: default 0 (netron) vs 0.5 (ours)", INIT),

    ("RNN", "attribute output_len: default 0 (netron) vs 1 (ours)", CHOICE),
    ("RNN", "attribute sequence_len: default 0 (netron) vs 1 (ours)", CHOICE),
    ("RNN", "attribute input_size: default 0 (netron) vs 1 (ours)", CHOICE),
    ("RNN", "attribute hidden_size: default 0 (netron) vs 1 (ours)", CHOICE),

    ("ROIAlign", "attribute pooled_width: default 0 (netron) vs absent (ours)", REQUIRED),
    ("ROIAlign", "attribute pooled_height: default 0 (netron) vs absent (ours)", REQUIRED),

    ("RPN", "attribute ratios: default [] (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute anchor_scales: default [] (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute feat_stride: default 0 (netron) vs 16 (ours)", INIT),
    ("RPN", "attribute basesize: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute min_size: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute per_nms_topn: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute post_nms_topn: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RPN", "attribute nms_thresh: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RPN", 'attribute anchors: type absent (netron) vs "float32[]" (ours)',
     "TM2_Vector_anchors: 4 floats per anchor, given as one float list"),
    ("RPN", "attribute anchors: default 0 (netron) vs [] (ours)",
     "an offset to a vector: empty is [] (no anchors stored), not the number 0"),

    ("ReduceL2", "attribute keepdim: default 0 (netron) vs 1 (ours)", INIT),

    ("Region", "attribute coords: default 0 (netron) vs 4 (ours)", CHOICE),

    ("Reorg", "attribute stride: default 0 (netron) vs 1 (ours)", INIT),

    ("Reshape", "attribute shape: named re_shape in ours",
     "offset_re_shape in tm2_format.h, re_shape in Tengine's reshape_param"),
    ("Reshape", "attribute is_onnx: not in netron", REAL_FIELD),
    ("Reshape", "attribute shape: default [] (netron) vs absent (ours)", REQUIRED),
    ("Reshape", "input shape: option None (netron) vs optional (ours)",
     "the ONNX shape tensor is kept by some files and ignored by Tengine (Reshape.yaml doc)"),

    ("Resize", "attribute scale_x: default 0 (netron) vs 1.0 (ours)", INIT),
    ("Resize", "attribute scale_y: default 0 (netron) vs 1.0 (ours)", INIT),

    ("RoiPooling", "attribute pooled_h: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RoiPooling", "attribute pooled_w: default 0 (netron) vs absent (ours)", REQUIRED),
    ("RoiPooling", "attribute spatial_scale: default 0 (netron) vs 1.0 (ours)", INIT),

    ("SELU", "attribute alpha: default 0 (netron) vs 1.67326319 (ours)", INIT),
    ("SELU", "attribute lambda: default 0 (netron) vs 1.05070102 (ours)", INIT),

    ("Scale", "attribute axis: default 0 (netron) vs 1 (ours)", INIT),
    ("Scale", "attribute num_axes: default 0 (netron) vs 1 (ours)", INIT),
    ("Scale", "input beta: option None (netron) vs optional (ours)",
     "Tengine adds a bias only when beta is given (Scale.yaml doc)"),

    ("Scatter", "attribute axis: default 0 (netron) vs -1 (ours)", INIT),
    ("Scatter", 'attribute is_onnx: type "boolean" (netron) vs "uint8" (ours)', C_BOOL),
    ("Scatter", "attribute is_onnx: default false (netron) vs 0 (ours)", C_BOOL),

    ("ShuffleChannel", "category: 'shape' (netron) vs 'Shape' (ours)",
     "seed 003's Shape; netron's lower-case 'shape' is none of its categories"),
    ("ShuffleChannel", "attribute group: default 0 (netron) vs 1 (ours)", INIT),

    ("Slice", "attribute step: not in netron", REAL_FIELD),
    ("Slice", "attribute axis: default 0 (netron) vs 1 (ours)", INIT),

    ("SoftMax", "attribute axis: default 0 (netron) vs 1 (ours)", INIT),

    ("SpaceToBatchND", "attribute dilation_x: default 0 (netron) vs absent (ours)", REQUIRED),
    ("SpaceToBatchND", "attribute dilation_y: default 0 (netron) vs absent (ours)", REQUIRED),

    ("SpaceToDepth", "attribute block_size: default 0 (netron) vs 1 (ours)", INIT),

    ("SparseToDense", "attribute output_shape_size0: default 0 (netron) vs 1 (ours)", INIT),

    ("Split", "attribute split_dim: default 0 (netron) vs 1 (ours)", INIT),
    ("Split", 'attribute is_caffe: type "boolean" (netron) vs "uint8" (ours)', C_BOOL),
    ("Split", "attribute is_caffe: default false (netron) vs 0 (ours)", C_BOOL),
    ("Split", 'attribute is_onnx: type "boolean" (netron) vs "uint8" (ours)', C_BOOL),
    ("Split", "attribute is_onnx: default false (netron) vs 0 (ours)", C_BOOL),

    ("Squeeze", "category: 'Transform' (netron) vs 'Shape' (ours)", SEED_CATEGORY),
    ("Squeeze", "attribute dim_0: default 0 (netron) vs -2 (ours)", INIT),
    ("Squeeze", "attribute dim_1: default 0 (netron) vs -2 (ours)", INIT),
    ("Squeeze", "attribute dim_2: default 0 (netron) vs -2 (ours)", INIT),
    ("Squeeze", "attribute dim_3: default 0 (netron) vs -2 (ours)", INIT),

    ("StridedSlice", "attribute begine_n: named begin_n in ours", BEGIN_TYPO),
    ("StridedSlice", "attribute begine_c: named begin_c in ours", BEGIN_TYPO),
    ("StridedSlice", "attribute begine_h: named begin_h in ours", BEGIN_TYPO),
    ("StridedSlice", "attribute begine_w: named begin_w in ours", BEGIN_TYPO),
    ("StridedSlice", "attribute stride_n: default 0 (netron) vs 1 (ours)", CHOICE),
    ("StridedSlice", "attribute stride_c: default 0 (netron) vs 1 (ours)", CHOICE),
    ("StridedSlice", "attribute stride_h: default 0 (netron) vs 1 (ours)", CHOICE),
    ("StridedSlice", "attribute stride_w: default 0 (netron) vs 1 (ours)", CHOICE),
    ("StridedSlice", "inputs: ['input', 'begin', 'end', 'strides'] (netron) vs ['input'] (ours)",
     "Tengine reads begin, end and strides from the parameters, and input 0 only (strided_slice.c)"),

    ("SwapAxis", "attribute dim_1: default 0 (netron) vs 1 (ours)", INIT),

    ("Threshold", "attribute Threshold: named threshold in ours",
     "tm2_format.h calls the field threshold (seed 003: Threshold)"),

    ("TopKV2", "attribute k: default 0 (netron) vs 1 (ours)", INIT),

    ("Transpose", "attribute shape: default [] (netron) vs absent (ours)", REQUIRED),

    ("Unsqueeze", "attribute axises[]: named axises in ours",
     'offset_vi_axises in tm2_format.h; "[]" is no part of the name'),
    ("Unsqueeze", "attribute axises[]: default [] (netron) vs absent (ours)", REQUIRED),

    ("Upsample", "attribute scale: default 0 (netron) vs absent (ours)", REQUIRED),

    ("Where", "category: 'Layer' (netron) vs None (ours)", SEED_NO_CATEGORY),
)


def _netron_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(NETRON_TENGINE.read_text(encoding="utf-8"))
    return items


def _netron_lookup(items: list[dict[str, Any]], name: str, version: int) -> dict[str, Any] | None:
    """The entry netron's tengine.Metadata.type(name, version) returns: name:version, else the next lower."""
    table = {(item["name"], item.get("version") or 0): item for item in items}  # a later entry replaces an earlier
    for v in range(version, -1, -1):
        if (name, v) in table:
            return table[(name, v)]
    return None


def _netron_entries() -> dict[str, dict[str, Any]]:
    """Netron's entry per op under the registry's name: the one netron shows for a tengine-lite file,
    or the version NETRON_VERSION names."""
    items = _netron_items()
    entries = {}
    for name in dict.fromkeys(item["name"] for item in items):
        version = NETRON_VERSION.get(name)
        entry = (next(i for i in items if i["name"] == name and i.get("version") == version) if version
                 else _netron_lookup(items, name, TENGINE_LITE_OP_VER))
        assert entry is not None, name
        entries[NAME_MAP.get(name, name)] = entry
    return entries


def _ours() -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in metadata(load_registry())["tengine"]}


def differences(theirs: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """What differs between netron's entry and ours, one line each (category, parameters, inputs, outputs).

    A parameter only netron has at the position of one only ours has, of the same type, is a rename.
    """
    found = []
    if theirs.get("category") != ours.get("category"):
        found.append(f"category: {theirs.get('category')!r} (netron) vs {ours.get('category')!r} (ours)")
    their_list, our_list = theirs.get("attributes", []), ours.get("attributes", [])
    their_attrs, our_attrs = {a["name"]: a for a in their_list}, {a["name"]: a for a in our_list}
    renamed = {t["name"]: o["name"] for t, o in zip(their_list, our_list, strict=False)
               if t["name"] not in our_attrs and o["name"] not in their_attrs and t.get("type") == o.get("type")}
    found += [f"attribute {t}: named {o} in ours" for t, o in renamed.items()]
    found += [f"attribute {n}: not in ours" for n in their_attrs if n not in our_attrs and n not in renamed]
    found += [f"attribute {n}: not in netron" for n in our_attrs
              if n not in their_attrs and n not in renamed.values()]
    common = [n for n in their_attrs if n in our_attrs]
    if common != [n for n in our_attrs if n in their_attrs]:
        found.append(f"attribute order: {common} (netron) vs {[n for n in our_attrs if n in their_attrs]} (ours)")
    for name in common + list(renamed):
        their, our = their_attrs[name], our_attrs[renamed.get(name, name)]
        for key in ("type", "default", "visible"):
            t, o = their.get(key, "absent"), our.get(key, "absent")
            if t != o or isinstance(t, bool) != isinstance(o, bool):
                found.append(f"attribute {name}: {key} {_text(t)} (netron) vs {_text(o)} (ours)")
    for role in ("inputs", "outputs"):
        if role not in theirs:
            continue
        their_names = [p["name"] for p in theirs[role]]
        our_names = [p["name"] for p in ours.get(role, [])]
        if their_names != our_names:
            found.append(f"{role}: {their_names} (netron) vs {our_names} (ours)")
            continue
        for t, o in zip(theirs[role], ours[role], strict=True):
            if t.get("option") != o.get("option"):
                found.append(f"{role[:-1]} {t['name']}: option {t.get('option')} (netron) vs {o.get('option')} (ours)")
    return found


def _text(value: Any) -> str:
    return json.dumps(value) if value != "absent" else "absent"


def test_every_netron_tengine_op_is_covered_or_a_listed_gap() -> None:
    theirs, ours = _netron_entries(), _ours()
    unknown = sorted(set(theirs) - set(ours) - set(NOT_YET_IN_REGISTRY) - set(NOT_AN_OP) - set(NETRON_ONLY))
    assert not unknown, f"netron describes Tengine ops the registry lacks and NOT_YET_IN_REGISTRY omits: {unknown}"
    landed = sorted(set(NOT_YET_IN_REGISTRY) & set(ours))
    assert not landed, f"now in the registry, remove from NOT_YET_IN_REGISTRY (and list their differences): {landed}"
    listed = set(NOT_YET_IN_REGISTRY) | set(NOT_AN_OP) | set(NETRON_ONLY) | set(NAME_MAP) | set(NETRON_VERSION)
    gone = sorted(name for name in listed if name not in {item["name"] for item in _netron_items()})
    assert not gone, f"names listed here that netron's file no longer has: {gone}"
    assert not set(NETRON_ONLY) & set(ours), "an op listed as netron-only is in the registry"


def test_netron_entries_are_read_as_netron_reads_them() -> None:
    items = _netron_items()
    several = sorted({i["name"] for i in items if sum(j["name"] == i["name"] for j in items) > 1})
    assert several == sorted(NETRON_VERSION), f"names with several entries in netron's file: {several}"
    reshape = [[a["name"] for a in i["attributes"]] for i in items if i["name"] == "Reshape"]
    shown = _netron_lookup(items, "Reshape", TENGINE_LITE_OP_VER)
    assert shown is not None and [a["name"] for a in shown["attributes"]] == reshape[1], \
        "netron shows the seed 003 table (dim_0 ... axis) for a tengine-lite Reshape"
    assert reshape[0] == reshape[2] == ["is_mxnet", "reverse", "shape"], reshape
    assert [a["name"] for a in _netron_entries()["Reshape"]["attributes"]] == reshape[2]


def test_op_ids_match_netrons_reader() -> None:
    """The op id netron's tmfile reader registers for a name is the registry's op id for it."""
    registered = dict(re.findall(r"register\((\d+), 0, '(\w+)'", NETRON_READER.read_text(encoding="utf-8")))
    assert registered, "netron's tengine.js registers no op ids any more: update the pattern"
    ours = {op.name: op.versions[-1].tengine.op_id for op in load_registry()
            if op.domain == "tengine" and op.versions[-1].tengine is not None}
    wrong = sorted(f"{name}: {index} (netron) vs {ours[name]} (ours)" for index, name in registered.items()
                   if name in ours and int(index) != ours[name])
    assert not wrong, f"op ids that differ from netron's reader: {wrong}"
    taken = {op_id: name for name, op_id in ours.items()}
    clashes = sorted(f"{index}: {name} (netron) vs {taken[int(index)]} (ours)" for index, name in registered.items()
                     if name not in ours and int(index) in taken)
    assert clashes == ["102: PackModel (netron) vs Softplus (ours)", "103: Num (netron) vs Reciprocal (ours)"], clashes


def test_shared_tengine_ops_differ_only_by_listed_fixes() -> None:
    theirs, ours = _netron_entries(), _ours()
    found = {(name, d) for name in sorted(set(theirs) & set(ours)) for d in differences(theirs[name], ours[name])}
    listed = [(op, d) for op, d, _ in OUR_FIXES]
    assert len(listed) == len(set(listed)), "OUR_FIXES lists a difference twice"
    unlisted = sorted(found - set(listed))
    assert not unlisted, "differences from netron's tengine-metadata.json that OUR_FIXES does not explain " \
                         "(a bug in ours, or a fix to list with its reason):\n" + \
                         "\n".join(f"  {op}: {d}" for op, d in unlisted)
    stale = sorted(set(listed) - found)
    assert not stale, "OUR_FIXES entries that match no difference any more:\n" + \
                      "\n".join(f"  {op}: {d}" for op, d in stale)
    runs = [op for i, (op, _, _) in enumerate(OUR_FIXES) if i == 0 or OUR_FIXES[i - 1][0] != op]
    assert len(runs) == len(set(runs)), "keep each op's rows of OUR_FIXES together"


def test_differences_sees_a_changed_default_and_order() -> None:
    theirs = {"name": "X", "attributes": [{"name": "a", "type": "int32", "default": 0},
                                          {"name": "b", "type": "int32", "default": 1}]}
    ours = {"name": "X", "attributes": [{"name": "b", "type": "int32", "default": 1},
                                        {"name": "a", "type": "int32", "default": 2}]}
    assert differences(theirs, ours) == ["attribute order: ['a', 'b'] (netron) vs ['b', 'a'] (ours)",
                                         "attribute a: default 0 (netron) vs 2 (ours)"]
    assert differences(theirs, theirs) == []


def test_differences_sees_a_rename_and_an_added_field() -> None:
    theirs = {"name": "X", "attributes": [{"name": "A", "type": "float32", "default": 0}]}
    ours = {"name": "X", "attributes": [{"name": "a", "type": "float32", "default": 1.0},
                                        {"name": "c", "type": "uint8", "default": 0}]}
    assert differences(theirs, ours) == ["attribute A: named a in ours", "attribute c: not in netron",
                                         "attribute A: default 0 (netron) vs 1.0 (ours)"]


def test_tengine_parameters_follow_the_binary_layout() -> None:
    registry = load_registry()
    ours = _ours()
    for op in registry:
        if op.domain == "tengine":
            layout = op.versions[-1].tengine
            assert layout is not None, f"{op.name} has no tengine block"
            assert [a["name"] for a in ours[op.name].get("attributes", [])] == [f.name for f in layout.layout], op.name


def test_a_required_parameter_has_no_default() -> None:
    # Tengine initialises SpaceToBatchND's block sizes to 0, which the op refuses: netron hides a parameter
    # equal to its default, so a default of 0 would hide exactly the invalid value
    dilation = {a["name"]: a for a in _ours()["SpaceToBatchND"]["attributes"]}["dilation_x"]
    assert "default" not in dilation
    assert {a["name"]: a for a in _ours()["Slice"]["attributes"]}["begins"]["default"] == []


def test_falsy_defaults_are_kept() -> None:
    meta = metadata(load_registry())
    falsy = [(e["name"], e.get("version"), a["name"]) for entries in meta.values() for e in entries
             for a in e.get("attributes", []) if "default" in a and not a["default"] and a["default"] is not False]
    assert falsy, "expected some attribute with a default of 0, 0.0, '' or []"
    pool = {a["name"]: a for a in _ours()["Pooling"]["attributes"]}
    assert pool["alg"]["default"] == 0 and pool["pad_h0"]["default"] == 0
    onnx = [e for e in meta["ai.onnx"] if e["name"] == "AveragePool" and e["version"] == 7]
    count_include_pad = {a["name"]: a for a in onnx[0]["attributes"]}["count_include_pad"]
    assert count_include_pad["default"] == 0, "netron's own onnx file drops this default; ours must keep it"


def test_gen_netron_writes_only_changed_files(tmp_path: Path) -> None:
    assert main(["--out", str(tmp_path)]) == 0
    written = tmp_path / "tengine-metadata.json"
    entries = json.loads(written.read_text(encoding="utf-8"))
    assert {e["name"] for e in entries} == set(_ours())
    stamp = written.stat().st_mtime_ns
    assert main(["--out", str(tmp_path)]) == 0
    assert written.stat().st_mtime_ns == stamp
