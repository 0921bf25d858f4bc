"""`opset import-onnx`: build `schemas/ai.onnx/<Op>.yaml` from `onnx.defs.get_all_schemas_with_history()`.

The conversion of one schema into a full version is shared with the onnxruntime importer, whose
schema objects spell a few accessors differently (see `SchemaAccess`).
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.defs
from onnx import helper

from opset.attr_types import BY_PROTO_NAME
from opset.importers.yaml_writer import ImporterError, SourceOp, import_ops, select_ops
from opset.registry_home import default_schemas

ONNX_DOMAIN = "ai.onnx"  # the registry domain onnx.defs' default domain ("") is imported into
# registry domain -> the domain onnx.defs files its schemas under
ONNX_SOURCE_DOMAINS: dict[str, str] = {
    ONNX_DOMAIN: "",
    "ai.onnx.ml": "ai.onnx.ml",
    "ai.onnx.preview.training": "ai.onnx.preview.training",
    "ai.onnx.preview": "ai.onnx.preview",
}
DEFAULT_SCHEMAS_DIR = default_schemas()  # the registry this code came with (a checkout's schemas/)

# Categories of the ops we know; every other op gets "Other" (people may change it in the file).
CATEGORY_BY_OP: dict[str, str] = {
    **dict.fromkeys(("AveragePool", "MaxPool", "GlobalAveragePool", "GlobalMaxPool", "LpPool", "GlobalLpPool",
                     "MaxRoiPool", "MaxUnpool", "QLinearAveragePool"), "Pool"),
    **dict.fromkeys(("Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "DeformConv"), "Conv"),
    **dict.fromkeys(("Relu", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Sigmoid", "HardSigmoid", "Tanh",
                     "Softmax", "LogSoftmax", "Hardmax", "Softplus", "Softsign", "ThresholdedRelu", "Gelu",
                     "FastGelu", "Mish", "HardSwish"), "Activation"),
    **dict.fromkeys(("Abs", "Add", "Sub", "Mul", "Div", "Sum", "Mean", "Max", "Min", "Clip", "Gemm", "MatMul",
                     "Neg", "Exp", "Log", "Pow", "Sqrt", "Reciprocal", "Floor", "Ceil", "Sign", "Erf",
                     "MatMulInteger16"), "Math"),
    **dict.fromkeys(("BatchNormalization", "InstanceNormalization", "LayerNormalization", "GroupNormalization",
                     "LRN", "LpNormalization", "MeanVarianceNormalization"), "Normalization"),
    **dict.fromkeys(("Concat", "Flatten", "Identity", "Pad", "Reshape", "Slice", "SpaceToDepth", "DepthToSpace",
                     "Squeeze", "Unsqueeze", "Transpose", "Upsample", "Resize", "Split", "Gather", "Expand",
                     "Tile", "Shape", "Size", "Cast", "CropAndResize"), "Tensor"),
    **dict.fromkeys(("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                     "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin",
                     "ReduceSumInteger"), "Reduce"),
    **dict.fromkeys(("Constant", "ConstantOfShape", "RandomNormal", "RandomUniform", "RandomNormalLike",
                     "RandomUniformLike", "EyeLike", "Range", "Multinomial"), "Generator"),
    **dict.fromkeys(("QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "QLinearMatMul",
                     "MatMulInteger", "DynamicQuantizeMatMul"), "Quantization"),
}

# The registry wants one name per input, output and attribute of a version, and identifiers; the few source
# schemas that reuse a name or use another get the param renamed here (only in the versions where that occurs).
# Any other clash raises ImporterError. Key: (domain, op, param name).
PARAM_RENAMES: dict[tuple[str, str, str], str] = {
    ("ai.onnx", "BatchNormalization", "mean"): "running_mean",  # output `mean` of v1-9 (as named since v14)
    ("ai.onnx", "BatchNormalization", "var"): "running_var",  # output `var` of v1-9
    ("ai.onnx", "Split", "split"): "split_input",  # v1 has both an input and an attribute `split`
    ("ai.onnx", "Split", "outputs..."): "outputs",  # v1's variadic output (no identifier), as named from v2
    ("com.microsoft", "MatMulNBitsQkv", "K"): "K_output",  # output `K` and attribute `K`
    ("ai.onnx.ort", "GivenTensorFill", "shape"): "shape_input",  # input and attribute `shape`, as ai.onnx's
    ("com.ms.internal.nhwc", "BatchNormalization", "mean"): "running_mean",  # as ai.onnx's
    ("com.ms.internal.nhwc", "BatchNormalization", "var"): "running_var",
}

_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf", "approx")
NO_DEFAULT = object()  # an attribute whose schema sets no default


@dataclass(frozen=True, slots=True)
class SchemaAccess:
    """How to read what onnx and onnxruntime schema objects spell differently."""

    param_type: Callable[[Any], str]
    param_homogeneous: Callable[[Any], bool]
    param_min_arity: Callable[[Any], int]
    attribute_default: Callable[[Any], Any]  # NO_DEFAULT when none is set


# ----------------------------------------------------------------------------------------------- text


def clean_text(text: str | None) -> str:
    """Dedent and strip; no trailing blanks or tabs, so that YAML can write it as a literal block."""
    lines = textwrap.dedent((text or "").expandtabs(4)).strip().splitlines()
    return "\n".join(line.rstrip() for line in lines)


def first_sentence(text: str) -> str:
    """The first sentence of Markdown `text`, as plain text on one line."""
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "").replace("**", "")
    plain = " ".join(plain.split())
    for match in re.finditer(r"[.!?](?=\s|$)", plain):
        words = plain[: match.start()].split()
        if not words or words[-1].lower() not in _ABBREVIATIONS:
            return plain[: match.end()]
    return plain


# ----------------------------------------------------------------------------------------------- values


def plain_value(value: Any, where: str) -> Any:
    """An attribute default as a YAML literal (str for bytes, shortest float32 repr for floats)."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return float(np.format_float_positional(np.float32(value), unique=True, trim="0"))
    if isinstance(value, list):
        return [plain_value(item, where) for item in value]
    raise ImporterError(f"{where}: cannot write a default of type {type(value).__name__}")


def default_from_proto(proto: onnx.AttributeProto, where: str) -> Any:
    if proto.type == onnx.AttributeProto.UNDEFINED:
        return NO_DEFAULT
    return plain_value(helper.get_attribute_value(proto), where)


def attribute_type(type_name: str, where: str) -> str:
    if type_name not in BY_PROTO_NAME:
        raise ImporterError(f"{where}: attribute type {type_name} has no registry equivalent")
    return BY_PROTO_NAME[type_name].name


# ----------------------------------------------------------------------------------------------- versions


def _attribute_spec(attr: Any, access: SchemaAccess, where: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": attribute_type(attr.type.name, where)}
    if attr.required:
        spec["required"] = True
    default = access.attribute_default(attr)
    if default is not NO_DEFAULT:
        spec["default"] = default
    doc = clean_text(attr.description)
    if doc:
        spec["doc"] = doc
    return spec


def _param_spec(param: Any, access: SchemaAccess) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": param.name, "type": access.param_type(param)}
    option = param.option.name
    if option == "Optional":
        spec["optional"] = True
    elif option == "Variadic":
        spec["variadic"] = True
        if access.param_min_arity(param) != 1:
            spec["min_arity"] = access.param_min_arity(param)
        if not access.param_homogeneous(param):
            spec["homogeneous"] = False
    doc = clean_text(param.description)
    if doc:
        spec["doc"] = doc
    return spec


def full_version(schema: Any, domain: str, access: SchemaAccess) -> dict[str, Any]:
    """One schema as a complete registry version (plus a `deprecated` flag the writer does not emit)."""
    where = f"{domain}::{schema.name}@{schema.since_version}"
    type_constraints: dict[str, Any] = {}
    for tc in schema.type_constraints:
        spec: dict[str, Any] = {"types": list(tc.allowed_type_strs)}
        if clean_text(tc.description):
            spec["doc"] = clean_text(tc.description)
        type_constraints[tc.type_param_str] = spec
    inputs = [_param_spec(p, access) for p in schema.inputs]
    outputs = [_param_spec(p, access) for p in schema.outputs]
    _rename_clashing_params(domain, schema.name, where, set(schema.attributes), inputs, outputs)
    return {
        "since": int(schema.since_version),
        "attributes": {name: _attribute_spec(schema.attributes[name], access, f"{where} attribute {name}")
                       for name in sorted(schema.attributes)},
        "inputs": inputs,
        "outputs": outputs,
        "type_constraints": type_constraints,
        "deprecated": bool(schema.deprecated),
    }


def _rename_clashing_params(domain: str, op: str, where: str, attributes: set[str],
                            inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> None:
    """Rename (in place, from PARAM_RENAMES) the param that reuses an input's or an attribute's name, or whose
    name is no identifier."""
    seen = set(attributes)
    for spec in [*inputs, *outputs]:
        name = spec["name"]
        why = ("names must be unique in a version" if name in seen else
               "names must be identifiers" if not name.isidentifier() else None)
        if why is not None:
            new_name = PARAM_RENAMES.get((domain, op, name))
            if new_name is None:
                raise ImporterError(f"{where}: name {name!r} is used twice or no identifier; add it to "
                                    "PARAM_RENAMES")
            spec["name"] = new_name
            note = f"Named `{name}` in the source; renamed because {why}."
            spec["doc"] = f"{spec['doc']}\n\n{note}" if spec.get("doc") else note
        seen.add(spec["name"])


def source_op(name: str, domain: str, schemas: list[Any], access: SchemaAccess) -> SourceOp:
    """All versions of one op (schemas oldest first) as a SourceOp."""
    versions = [full_version(s, domain, access) for s in schemas]
    doc = clean_text(schemas[-1].doc)
    status = None
    if versions[-1]["deprecated"]:
        first = len(versions) - 1
        while first > 0 and versions[first - 1]["deprecated"]:
            first -= 1
        status = {"state": "deprecated", "since": versions[first]["since"]}
    return SourceOp(name=name, domain=domain, category=CATEGORY_BY_OP.get(name, "Other"),
                    summary=first_sentence(doc) if doc else f"The {name} operator.", doc=doc,
                    versions=versions, status=status)


# ----------------------------------------------------------------------------------------------- onnx


ONNX_ACCESS = SchemaAccess(
    param_type=lambda p: p.type_str,
    param_homogeneous=lambda p: bool(p.is_homogeneous),
    param_min_arity=lambda p: int(p.min_arity),
    attribute_default=lambda a: default_from_proto(a.default_value, a.name),
)


def group_by_name(schemas: Iterable[Any]) -> dict[str, list[Any]]:
    grouped: dict[str, list[Any]] = {}
    for schema in schemas:
        grouped.setdefault(schema.name, []).append(schema)
    return {name: sorted(group, key=lambda s: s.since_version) for name, group in sorted(grouped.items())}


@functools.cache
def onnx_history(domain: str = ONNX_DOMAIN, *, include_experimental: bool = True) -> dict[str, list[Any]]:
    """Every schema of one registry domain (`ai.onnx`, `ai.onnx.ml` ...) of the installed onnx, by op name,
    oldest first, its experimental ones included (ai.onnx's Upsample@1, which models of opsets 1 to 6 use; the
    preview domains' FlexAttention); `include_experimental=False` leaves ai.onnx's out."""
    source = ONNX_SOURCE_DOMAINS[domain]
    keep_experimental = include_experimental or domain != ONNX_DOMAIN
    return group_by_name(
        s for s in onnx.defs.get_all_schemas_with_history()
        if s.domain == source and (keep_experimental or s.support_level != s.SupportType.EXPERIMENTAL))


def build_onnx_op(name: str, domain: str = ONNX_DOMAIN) -> SourceOp:
    return source_op(name, domain, onnx_history(domain)[name], ONNX_ACCESS)


def import_onnx(schemas_dir: Path, ops: list[str] | None, *, create: bool, domain: str = ONNX_DOMAIN) -> list[Path]:
    """Create or refresh the op files of one onnx domain; see `select_ops` for which ones. Returns the files
    written."""
    names = select_ops(schemas_dir, domain, onnx_history(domain), ops, create=create)
    return import_ops(schemas_dir, domain, names, functools.partial(build_onnx_op, domain=domain))


# ----------------------------------------------------------------------------------------------- CLI


def run_import_cli(prog: str, args: list[str], importer: Callable[..., list[Path]],
                   domains: Iterable[str] = ()) -> int:
    """Shared command line of `opset import-onnx` and `opset import-ort` (`domains`: the registry domains the
    importer takes with `--domain`, the first being the default)."""
    parser = argparse.ArgumentParser(prog=prog, description="Create or refresh op files from the source. "
                                     "Without --op or --all, refresh the files that exist.")
    parser.add_argument("--schemas", type=Path, default=DEFAULT_SCHEMAS_DIR, help="registry folder")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--op", nargs="+", action="extend", metavar="NAME", help="create or refresh these ops")
    which.add_argument("--all", action="store_true", help="every op of the source")
    choices = list(domains)
    if choices:
        parser.add_argument("--domain", choices=choices, default=choices[0],
                            help=f"registry domain (default {choices[0]})")
    options = parser.parse_args(args)
    extra = {"domain": options.domain} if choices else {}
    try:
        written = importer(options.schemas, options.op, create=bool(options.op) or options.all, **extra)
    except ImporterError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"{prog}: {len(written)} file(s) written")
    return 0


def main_import_onnx(args: list[str]) -> int:
    return run_import_cli("opset import-onnx", args, import_onnx, ONNX_SOURCE_DOMAINS)
