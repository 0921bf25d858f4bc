"""`gen netron` against the metadata netron ships: every Tengine op there is ours or a listed gap.

For an op both files have, every difference between netron's entry and ours must be listed in
OUR_FIXES with the reason ours is right; an unlisted difference is a bug in ours (or a fix that
needs its reason written down). Keys netron's file leaves out (`description`, `op_id`, `outputs`
when it lists none) are additions, not differences.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gen.netron.generator import main, metadata
from opset.load import load_registry

netron = pytest.importorskip("netron")
NETRON_TENGINE = Path(netron.__file__).parent / "tengine-metadata.json"

# Tengine ops netron describes that the registry has no YAML for yet (remove a name when its YAML lands)
NOT_YET_IN_REGISTRY = {
    'Absval', 'Accuracy', 'Addn', 'ArgMax', 'ArgMin', 'BatchNormalization', 'BatchToSpaceND', 'Bias',
    'BilinearResize', 'BroadMul', 'Cast', 'Ceil', 'Clip', 'Comparison', 'Concat', 'Const', 'Crop',
    'Deconvolution', 'DepthToSpace', 'DetectionOutput', 'DetectionPostProcess', 'DropOut', 'ELU', 'Embed',
    'Expand', 'Expanddims', 'Flatten', 'FusedbnScaleRelu', 'GRU', 'Gather', 'Gemm', 'Generic', 'HardSwish',
    'Hardsigmoid', 'InstanceNorm', 'Interp', 'L2Normalization', 'L2Pool', 'LRN', 'LSTM', 'LogSoftmax',
    'Logical', 'Logistic', 'MVN', 'MatMul', 'Max', 'Mean', 'Min', 'Mish', 'Noop', 'Normalize', 'PackModel',
    'Pad', 'Permute', 'Prelu', 'PriorBox', 'Psroipooling', 'RNN', 'ROIAlign', 'RPN', 'ReLU6', 'ReduceL2',
    'Reduction', 'Region', 'Relu1', 'Reorg', 'Reshape', 'Resize', 'Reverse', 'RoiPooling', 'Round', 'SELU',
    'Scale', 'Scatter', 'Shape', 'ShuffleChannel', 'Sigmoid', 'Slice', 'SoftMax', 'SpaceToBatchND',
    'SpaceToDepth', 'SparseToDense', 'Split', 'SquaredDifference', 'Squeeze', 'StridedSlice', 'SwapAxis',
    'TanH', 'Threshold', 'TopKV2', 'Transpose', 'Unary', 'Unsqueeze', 'Upsample', 'Where', 'ZerosLike',
}
# names in netron's file that are not operators
NOT_AN_OP = {"Num": "the count of op types in tengine-lite's enum (DESIGN: 'Num' is a count, not an op)"}

# (op, difference) -> why ours is right
OUR_FIXES: dict[tuple[str, str], str] = {
    ("Convolution", "attribute input_channel: default 1 (netron) vs 64 (ours)"):
        "seed 003 gives no default; the registry takes Tengine's initial value (see Convolution.yaml seed_note)",
    ("Convolution", "attribute output_channel: default 1 (netron) vs 64 (ours)"):
        "seed 003 gives no default; the registry takes Tengine's initial value (see Convolution.yaml seed_note)",
    **{("Convolution", f"attribute {name}: visible false (netron) vs absent (ours)"):
       "a display hint, not part of the op: Netron already hides a parameter equal to its default"
       for name in ("dilation_h", "dilation_w", "group", "pad_h0", "pad_w0", "pad_h1", "pad_w1")},
    ("Convolution", "input bias: option None (netron) vs optional (ours)"):
        "Tengine convolutions without bias are valid (two inputs); netron marks the bias required",
    ("FullyConnected", "input bias: option None (netron) vs optional (ours)"):
        "a fully connected layer without bias is valid in Tengine (two inputs); netron marks the bias required",
    ("Pooling", 'attribute alg: type "int32" (netron) vs "uint32" (ours)'):
        "tm2_format.h declares TM2_PoolParam.alg as uint32_t",
    **{("Pooling", f"attribute {name}: default 0 (netron) vs 2 (ours)"):
       "a 0 kernel or stride is no pooling; the registry takes Tengine's initial values (Pooling.yaml seed_note)"
       for name in ("kernel_h", "kernel_w", "stride_h", "stride_w")},
    ("FullyConnected", "attribute num_output: default 10 (netron) vs 1 (ours)"):
        "the registry's default for num_output (FullyConnected.yaml); netron's 10 has no source in Tengine",
    **{("Eltwise", f"attribute {name}: not in netron"):
       "TM2_EltwiseParam gained shift, power and scale after netron's entry (Eltwise.yaml doc)"
       for name in ("shift", "power", "scale")},
    ("Eltwise", "inputs: ['inputs'] (netron) vs ['A', 'B'] (ours)"):
        "Eltwise takes at most two inputs, the second optional for unary types; one variadic list hides that",
}


def _netron_entries() -> dict[str, dict[str, Any]]:
    """Netron's entries by name, keeping the last unversioned one as netron's own lookup does."""
    entries: dict[str, dict[str, Any]] = {}
    for item in json.loads(NETRON_TENGINE.read_text(encoding="utf-8")):
        if not item.get("version"):
            entries[item["name"]] = item
    return entries


def _ours() -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in metadata(load_registry())["tengine"]}


def differences(theirs: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    found = []
    if theirs.get("category") != ours.get("category"):
        found.append(f"category: {theirs.get('category')!r} (netron) vs {ours.get('category')!r} (ours)")
    their_attrs = {a["name"]: a for a in theirs.get("attributes", [])}
    our_attrs = {a["name"]: a for a in ours.get("attributes", [])}
    found += [f"attribute {n}: not in ours" for n in their_attrs if n not in our_attrs]
    found += [f"attribute {n}: not in netron" for n in our_attrs if n not in their_attrs]
    common = [n for n in their_attrs if n in our_attrs]
    if common != [n for n in our_attrs if n in their_attrs]:
        found.append(f"attribute order: {common} (netron) vs {[n for n in our_attrs if n in their_attrs]} (ours)")
    for name in common:
        for key in ("type", "default", "visible"):
            t, o = their_attrs[name].get(key, "absent"), our_attrs[name].get(key, "absent")
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
    unknown = sorted(set(theirs) - set(ours) - NOT_YET_IN_REGISTRY - set(NOT_AN_OP))
    assert not unknown, f"netron describes Tengine ops the registry lacks and NOT_YET_IN_REGISTRY omits: {unknown}"
    landed = sorted(NOT_YET_IN_REGISTRY & set(ours))
    assert not landed, f"now in the registry, remove from NOT_YET_IN_REGISTRY (and list their differences): {landed}"


def test_shared_tengine_ops_differ_only_by_listed_fixes() -> None:
    theirs, ours = _netron_entries(), _ours()
    found = {(name, d) for name in sorted(set(theirs) & set(ours)) for d in differences(theirs[name], ours[name])}
    unlisted = sorted(found - set(OUR_FIXES))
    assert not unlisted, "differences from netron's tengine-metadata.json that OUR_FIXES does not explain " \
                         "(a bug in ours, or a fix to list with its reason):\n" + \
                         "\n".join(f"  {op}: {d}" for op, d in unlisted)
    stale = sorted(set(OUR_FIXES) - found)
    assert not stale, "OUR_FIXES entries that match no difference any more:\n" + \
                      "\n".join(f"  {op}: {d}" for op, d in stale)


def test_differences_sees_a_changed_default_and_order() -> None:
    theirs = {"name": "X", "attributes": [{"name": "a", "type": "int32", "default": 0},
                                          {"name": "b", "type": "int32", "default": 1}]}
    ours = {"name": "X", "attributes": [{"name": "b", "type": "int32", "default": 1},
                                        {"name": "a", "type": "int32", "default": 2}]}
    assert differences(theirs, ours) == ["attribute order: ['a', 'b'] (netron) vs ['b', 'a'] (ours)",
                                         "attribute a: default 0 (netron) vs 2 (ours)"]
    assert differences(theirs, theirs) == []


def test_tengine_parameters_follow_the_binary_layout() -> None:
    registry = load_registry()
    ours = _ours()
    for op in registry:
        if op.domain == "tengine":
            layout = op.versions[-1].tengine
            assert layout is not None, f"{op.name} has no tengine block"
            assert [a["name"] for a in ours[op.name].get("attributes", [])] == [f.name for f in layout.layout], op.name


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
