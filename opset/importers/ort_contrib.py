"""`opset import-ort`: build `schemas/<domain>/<Op>.yaml` from onnxruntime's contrib op schemas.

Domains: `com.microsoft` (the contrib ops), `com.microsoft.nchwc` (the blocked-layout ops onnxruntime's layout
optimizer writes), `com.ms.internal.nhwc` (the channels-last twins its layout transformer writes for execution
providers that want NHWC) and `ai.onnx.ort` (the ops onnxruntime registers in onnx's default domain beyond onnx's own
opsets: the experimental ops onnx dropped, Affine, Crop, ImageScaler ..., which `opset validate --profile
onnxruntime` resolves); `--domain` picks one.

onnxruntime is optional (extra `ort`); it is imported only when this importer runs.
onnxruntime's schema objects do not expose `min_arity`: variadic params get the format's default (1).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import onnx
import onnx.defs

from opset.importers.onnx_defs import (
    NO_DEFAULT,
    SchemaAccess,
    group_by_name,
    plain_value,
    run_import_cli,
    source_op,
)
from opset.importers.yaml_writer import ImporterError, SourceOp, import_ops, select_ops

ORT_DOMAIN = "com.microsoft"
ORT_LEGACY_DOMAIN = "ai.onnx.ort"  # onnxruntime's default-domain ops beyond onnx's opsets
# registry domain -> the domain onnxruntime registers its schemas under
ORT_SOURCES: dict[str, str] = {"com.microsoft": "com.microsoft", "com.microsoft.nchwc": "com.microsoft.nchwc",
                               "com.ms.internal.nhwc": "com.ms.internal.nhwc", ORT_LEGACY_DOMAIN: ""}
ORT_SOURCE_DOMAINS = tuple(ORT_SOURCES)


def ort_default(attr: Any) -> Any:
    """onnxruntime hands a default as a serialized AttributeProto (empty bytes: no default)."""
    raw = attr._default_value
    if not raw:
        return NO_DEFAULT
    proto = onnx.AttributeProto()
    proto.ParseFromString(raw)
    if proto.type == onnx.AttributeProto.UNDEFINED:
        return NO_DEFAULT
    return plain_value(onnx.helper.get_attribute_value(proto), attr.name)


ORT_ACCESS = SchemaAccess(
    param_type=lambda p: p.typeStr,
    param_homogeneous=lambda p: bool(p.isHomogeneous),
    param_min_arity=lambda p: 1,
    attribute_default=ort_default,
)


@functools.cache
def ort_history(domain: str = ORT_DOMAIN) -> dict[str, list[Any]]:
    """Every schema of one registry domain of the installed onnxruntime, by op name, oldest first. For `ai.onnx.ort`
    that is what onnxruntime registers in the default domain and onnx does not define (no onnx schema of that name
    and version)."""
    try:
        from onnxruntime.capi import onnxruntime_pybind11_state as ort_state
    except ImportError as error:
        raise ImporterError(f"onnxruntime is not installed ({error}); pip install 'opset[ort]'") from error
    source = ORT_SOURCES[domain]
    schemas = [s for s in ort_state.get_all_operator_schema() if s.domain == source]
    if domain == ORT_LEGACY_DOMAIN:
        onnx_own = {(s.name, s.since_version) for s in onnx.defs.get_all_schemas_with_history() if s.domain == ""}
        schemas = [s for s in schemas if (s.name, s.since_version) not in onnx_own]
    return group_by_name(schemas)


def build_ort_op(name: str, domain: str = ORT_DOMAIN) -> SourceOp:
    return source_op(name, domain, ort_history(domain)[name], ORT_ACCESS)


def import_ort(schemas_dir: Path, ops: list[str] | None, *, create: bool, domain: str = ORT_DOMAIN) -> list[Path]:
    """Create or refresh the op files of one onnxruntime domain; see `select_ops` for which ones. Returns the
    files written."""
    names = select_ops(schemas_dir, domain, ort_history(domain), ops, create=create)
    return import_ops(schemas_dir, domain, names, functools.partial(build_ort_op, domain=domain))


def main_import_ort(args: list[str]) -> int:
    return run_import_cli("opset import-ort", args, import_ort, ORT_SOURCE_DOMAINS)
