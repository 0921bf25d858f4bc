"""`opset import-ort`: build `schemas/<domain>/<Op>.yaml` from onnxruntime's contrib op schemas.

Domains: `com.microsoft` (the contrib ops) and `com.microsoft.nchwc` (the blocked-layout ops onnxruntime's
layout optimizer writes); `--domain` picks one.

onnxruntime is optional (extra `ort`); it is imported only when this importer runs.
onnxruntime's schema objects do not expose `min_arity`: variadic params get the format's default (1).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import onnx

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
ORT_SOURCE_DOMAINS = ("com.microsoft", "com.microsoft.nchwc")  # registry domains = onnxruntime's domain strings


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
    """Every schema of one onnxruntime domain of the installed onnxruntime, by op name, oldest first."""
    try:
        from onnxruntime.capi import onnxruntime_pybind11_state as ort_state
    except ImportError as error:
        raise ImporterError(f"onnxruntime is not installed ({error}); pip install 'opset[ort]'") from error
    return group_by_name(s for s in ort_state.get_all_operator_schema() if s.domain == domain)


def build_ort_op(name: str, domain: str = ORT_DOMAIN) -> SourceOp:
    return source_op(name, domain, ort_history(domain)[name], ORT_ACCESS)


def import_ort(schemas_dir: Path, ops: list[str] | None, *, create: bool, domain: str = ORT_DOMAIN) -> list[Path]:
    """Create or refresh the op files of one onnxruntime domain; see `select_ops` for which ones. Returns the
    files written."""
    names = select_ops(schemas_dir, domain, ort_history(domain), ops, create=create)
    return import_ops(schemas_dir, domain, names, functools.partial(build_ort_op, domain=domain))


def main_import_ort(args: list[str]) -> int:
    return run_import_cli("opset import-ort", args, import_ort, ORT_SOURCE_DOMAINS)
